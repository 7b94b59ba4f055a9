package verify;

import cli.Registry;
import core.Combination;
import core.Engine;
import core.Page;
import core.Streaming;
import core.Templates;

import org.apache.velocity.Template;
import org.apache.velocity.VelocityContext;
import org.apache.velocity.app.VelocityEngine;
import org.apache.velocity.runtime.resource.loader.ClasspathResourceLoader;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * verify's concurrent check must catch the published study's Velocity bug: one VelocityContext shared by every
 * render. Rendered alone such an engine gives the right page; served to concurrent requests, each render's
 * {@code #foreach} puts its loop variable into the shared context and then waits for the next item, and meanwhile
 * another render puts its own, so pages get other requests' rows (or the loop variable's name, once another
 * render's loop has ended and removed it); the context also holds the stack of #parse'd templates, so renders
 * see each other's nesting and fail on Velocity's include depth. The same templates with a context per render
 * pass. verify's concurrent check needed no change: at 20 requests per page, 16 to 20 of them came back wrong.
 */
class SharedContextTest {

    /** The same templates as engines.VelocityEngine, rendered with ONE context for every render (the bug). */
    private static final class SharedContextEngine implements Engine {
        private static final VelocityEngine VELOCITY = velocity();
        private final VelocityContext shared = new VelocityContext();

        private static VelocityEngine velocity() {
            Properties properties = new Properties();
            properties.setProperty("resource.loaders", "class");
            properties.setProperty("resource.loader.class.class", ClasspathResourceLoader.class.getName());
            properties.setProperty("resource.loader.class.cache", "true");
            VelocityEngine engine = new VelocityEngine(properties);
            engine.init();
            return engine;
        }

        private final Templates templates = Templates.of(id())
                .add(Page.PRESENTATIONS, page(Page.PRESENTATIONS), fragments(Page.PRESENTATIONS, "p"))
                .add(Page.STOCKS, page(Page.STOCKS), fragments(Page.STOCKS, "s"));

        private static Template template(String name) {
            return VELOCITY.getTemplate("templates/velocity/" + name + ".vm", "UTF-8");
        }

        private <T> Templates.Blocking<T> page(Page<T> page) {
            Template template = template(page.id());
            return (items, out) -> {
                shared.put("items", items);
                template.merge(shared, out);
            };
        }

        private <T> Templates.Fragments<T> fragments(Page<T> page, String itemVariable) {
            Template head = template(page.id() + "-head");
            Template item = template(page.id() + "-item");
            Template tail = template(page.id() + "-tail");
            return Templates.Fragments.of(out -> head.merge(shared, out), (value, out) -> {
                shared.put(itemVariable, value);
                item.merge(shared, out);
            }, out -> tail.merge(shared, out));
        }

        @Override
        public String id() {
            return "velocity-shared-context";
        }

        @Override
        public String description() {
            return "Velocity with one VelocityContext shared by every render (test only)";
        }

        @Override
        public Streaming streaming() {
            return Streaming.lookahead(1);
        }

        @Override
        public Templates templates() {
            return templates;
        }
    }

    private static final Engine SHARED = new SharedContextEngine();
    private static final Engine VELOCITY = Registry.engine("velocity");

    /** verify's own checks at MatrixTest's delay and concurrency; both engines render the same bytes alone. */
    private static List<String> problems(Engine engine) {
        Verifier verifier = new Verifier(List.of(VELOCITY, SHARED), Duration.ofMillis(25), 20);
        Combination virtual = new Combination(Registry.server("nima"), engine, Registry.mode("virtual"));
        return verifier.verify(virtual).allProblems();
    }

    @Test
    void aContextSharedAcrossRendersIsCaughtByTheConcurrentCheck() {
        List<String> problems = problems(SHARED);
        assertTrue(problems.stream().anyMatch(p -> p.contains("concurrent requests")
                && p.contains("returned another body")), problems::toString);
    }

    @Test
    void aContextPerRenderPasses() {
        List<String> problems = problems(VELOCITY);
        assertTrue(problems.isEmpty(), problems::toString);
    }
}
