package engines;

import model.Engine;
import model.Page;
import model.Streaming;
import model.Templates;
import org.apache.velocity.Template;
import org.apache.velocity.VelocityContext;
import org.apache.velocity.runtime.resource.loader.ClasspathResourceLoader;

import java.util.Properties;

/**
 * Apache Velocity: text templates interpreted at run time. Its {@code #foreach} asks for the next item before
 * rendering the current one, so over a blocking Iterable each item's markup goes out one item late.
 *
 * <p>Every render gets a fresh {@link VelocityContext}: a context holds the loop variable while the loop waits
 * for data, so one shared across requests serves other requests' items (the published study's Velocity app did,
 * and served corrupted pages under load; tests/verify/SharedContextTest shows verify catching it).
 */
public final class VelocityEngine implements Engine {

    private static final String DIR = "templates/velocity/";

    /**
     * Built when the engine's templates are first asked for (a holder class), not when the registry lists
     * the engine: a command that renders with another engine does not pay for this one.
     */
    private static final class Compiled {
        // Departs from Velocity's defaults: templates come from the class path (the default loader reads files from the
        // working directory), and loaded templates are cached: without the cache every getTemplate and every #parse,
        // once per item, reads and parses its file again. No HTML escaping, as by default (Velocity escapes only with
        // an event handler configured), so the summaries need no marking.
        static final org.apache.velocity.app.VelocityEngine VELOCITY = velocity();
        // Each page is three sub-templates (head, item, tail) that the page template #parse's around its #foreach; the
        // fragments merge the same sub-templates on their own, the item one with the loop's variable.
        static final Templates TEMPLATES = Templates.of("velocity")
                .add(Page.PRESENTATIONS, page(Page.PRESENTATIONS), fragments(Page.PRESENTATIONS, "p"))
                .add(Page.STOCKS, page(Page.STOCKS), fragments(Page.STOCKS, "s"));
    }

    private static org.apache.velocity.app.VelocityEngine velocity() {
        Properties properties = new Properties();
        properties.setProperty("resource.loaders", "class");
        properties.setProperty("resource.loader.class.class", ClasspathResourceLoader.class.getName());
        properties.setProperty("resource.loader.class.cache", "true");
        org.apache.velocity.app.VelocityEngine engine = new org.apache.velocity.app.VelocityEngine(properties);
        engine.init();
        return engine;
    }

    @Override
    public String id() {
        return "velocity";
    }

    @Override
    public String description() {
        return "Velocity {org.apache.velocity:velocity-engine-core} (text templates interpreted at run time; blocking;"
                + " renders one item late)";
    }

    @Override
    public Streaming streaming() {
        // Foreach.render: next(), then foreach.hasNext = i.hasNext() for the $foreach scope (on by default,
        // context.scope_control.foreach), then the body.
        return Streaming.lookahead(1);
    }

    @Override
    public Templates templates() {
        return Compiled.TEMPLATES;
    }

    private static Template template(String name) {
        return Compiled.VELOCITY.getTemplate(DIR + name + ".vm", "UTF-8");
    }

    private static <T> Templates.Blocking<T> page(Page<T> page) {
        Template template = template(page.id());
        return (items, out) -> {
            VelocityContext context = new VelocityContext();   // one per render, never shared
            context.put("items", items);
            template.merge(context, out);
        };
    }

    private static <T> Templates.Fragments<T> fragments(Page<T> page, String itemVariable) {
        Template head = template(page.id() + "-head");
        Template item = template(page.id() + "-item");
        Template tail = template(page.id() + "-tail");
        return Templates.Fragments.of(
                out -> head.merge(new VelocityContext(), out),
                (value, out) -> {
                    VelocityContext context = new VelocityContext();
                    context.put(itemVariable, value);
                    item.merge(context, out);
                },
                out -> tail.merge(new VelocityContext(), out));
    }
}
