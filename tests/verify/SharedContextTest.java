package verify;

import cli.Registry;
import model.Engine;
import model.Page;
import model.Streaming;
import model.Templates;
import site.Combination;

import org.apache.velocity.Template;
import org.apache.velocity.VelocityContext;
import org.apache.velocity.app.VelocityEngine;
import org.apache.velocity.runtime.resource.loader.ClasspathResourceLoader;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /**
     * verify's own checks at MatrixTest's delay and concurrency; both engines render the same bytes alone. What the
     * loggers say meanwhile goes into {@code logged}, not to the console: the shared context makes Velocity log
     * hundreds of "Max recursion depth reached" errors, provoked here on purpose, which buried a passing run's
     * output; the tests assert on them instead.
     */
    private static List<String> problems(Engine engine, List<LogRecord> logged) {
        Verifier verifier = new Verifier(List.of(VELOCITY, SHARED), Duration.ofMillis(25), 20);
        Combination virtual = new Combination(Registry.server("nima"), engine, Registry.mode("virtual"));
        Logger root = Logger.getLogger("");
        Handler[] console = root.getHandlers();
        Handler capture = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                logged.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        for (Handler h : console) {
            root.removeHandler(h);
        }
        root.addHandler(capture);
        try {
            return verifier.verify(virtual).allProblems();
        } finally {
            root.removeHandler(capture);
            for (Handler h : console) {
                root.addHandler(h);
            }
        }
    }

    /** The captured warnings and errors, each as LEVEL logger: message. */
    private static List<String> warnings(List<LogRecord> logged) {
        SimpleFormatter formatter = new SimpleFormatter();
        synchronized (logged) {
            return logged.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                    .map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + formatter.formatMessage(r)).toList();
        }
    }

    @Test
    void aContextSharedAcrossRendersIsCaughtByTheConcurrentCheck() {
        List<LogRecord> logged = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> problems = problems(SHARED, logged);
        assertTrue(problems.stream().anyMatch(p -> p.contains("concurrent requests")
                && p.contains("returned another body")), problems::toString);
        // What the shared context does, as the loggers tell it: renders nest in each other's #parse stack until
        // Velocity's depth limit, or find the items taken by another render. Nothing else.
        List<String> warnings = warnings(logged);
        List<String> other = warnings.stream().filter(w -> !w.contains("Max recursion depth reached")
                && !w.contains("render failed for /")).toList();
        assertTrue(other.isEmpty(), other::toString);
    }

    @Test
    void aContextPerRenderPasses() {
        List<LogRecord> logged = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> problems = problems(VELOCITY, logged);
        assertTrue(problems.isEmpty(), problems::toString);
        assertEquals(List.of(), warnings(logged), "a correct engine logs no warning");
    }
}
