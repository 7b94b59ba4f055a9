package engines;

import model.Engine;
import model.Page;
import model.TempFolders;
import model.Templates;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.WriterOutput;
import gg.jte.resolve.ResourceCodeResolver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * jte: templates compiled to Java classes. Its {@code @for} is a plain Java for-each that writes each item before
 * asking for the next, so it is progressive over a blocking Iterable.
 *
 * <p>Each page is three sub-templates (head, item, tail) that the page template calls around its loop
 * ({@code @template.presentations-head()} ...); the fragments render the same sub-templates alone.
 */
public final class JteEngine implements Engine {

    private static final String DIR = "templates/jte";
    private static final List<String> PAGES = List.of("presentations", "stocks");

    /**
     * Compiled once, when a jte template first renders (a holder class: a command that does not
     * render with jte, such as {@code --version}, {@code report} or a server of another engine, does not pay javac's
     * two seconds), with the JDK's compiler: jte's production path precompiles with its Maven or
     * Gradle plugin, which jbang cannot run, so both builds use the same run-time compilation instead. An on-demand
     * engine reads the templates from the class path (the same under Maven, jbang and the shaded jar) and compiles
     * every page with its sub-templates into a temporary class folder; javac gets the JVM's class path
     * (target/classes and the jars, jbang's cached jar, or the shaded jar), so the templates see model.Presentation
     * and model.Stock. The engine that renders is then a precompiled one over that folder, whose class loader's
     * parent is this class's: departing from the on-demand engine, it does not look for changed template files on
     * every render (which the on-demand engine does, under a lock per template).
     */
    private static final class Compiled {
        static final TemplateEngine JTE = compile();
    }

    /**
     * Outside the holder: asking which templates jte offers (each mode's check, for every engine, when a command
     * lists or validates combinations) must not compile them; the first render does, and serve renders every page
     * before it listens (site.Site), so no request pays for it.
     */
    private static final Templates TEMPLATES = Templates.of("jte")
            .add(Page.PRESENTATIONS, (items, out) -> render("presentations.jte", items, out),
                    fragments("presentations"))
            .add(Page.STOCKS, (items, out) -> render("stocks.jte", items, out),
                    fragments("stocks"));

    private static TemplateEngine compile() {
        Path classes;
        try {
            classes = Files.createTempDirectory("pssrbench-jte");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            ClassLoader loader = JteEngine.class.getClassLoader();
            // Defaults kept: ContentType.Html escapes every ${} output by its HTML context (the summaries are
            // $unsafe{} in the template).
            TemplateEngine compiler = TemplateEngine.create(new ResourceCodeResolver(DIR, loader), classes,
                    ContentType.Html, loader);
            for (String page : PAGES) {
                for (String part : List.of("", "-head", "-item", "-tail")) {
                    compiler.prepareForRendering(page + part + ".jte");
                }
            }
            TemplateEngine precompiled = compiler.reloadPrecompiled(classes);
            // Registered only now: a hook that calls into this class would fail if its initialisation had.
            TempFolders.deleteOnExit(classes);
            return precompiled;
        } catch (RuntimeException | Error e) {
            TempFolders.delete(classes);
            throw e;
        }
    }

    @Override
    public String id() {
        return "jte";
    }

    @Override
    public String description() {
        return "jte {gg.jte:jte} (templates compiled to Java at start-up; blocking)";
    }

    private static <T> Templates.Fragments<T> fragments(String page) {
        return Templates.Fragments.of(
                out -> Compiled.JTE.render(page + "-head.jte", Map.of(), new WriterOutput(out)),
                (item, out) -> render(page + "-item.jte", item, out),
                out -> Compiled.JTE.render(page + "-tail.jte", Map.of(), new WriterOutput(out)));
    }

    /** A template with one parameter, given positionally. */
    private static void render(String template, Object param, java.io.Writer out) {
        Compiled.JTE.render(template, param, new WriterOutput(out));
    }

    @Override
    public Templates templates() {
        return TEMPLATES;
    }
}
