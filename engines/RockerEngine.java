package engines;

import model.Engine;
import model.Page;
import model.Presentation;
import model.Stock;
import model.TempFolders;
import model.Templates;

import com.fizzed.rocker.ContentType;
import com.fizzed.rocker.RockerModel;
import com.fizzed.rocker.compiler.RockerConfiguration;
import com.fizzed.rocker.compiler.TemplateCompiler;
import com.fizzed.rocker.runtime.AbstractRockerOutput;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rocker: templates compiled to Java classes, one model class per template with a static {@code template(...)}
 * builder. Its {@code @for} over an Iterable is a plain Java for-each that writes each item to the output before
 * asking for the next, so it is progressive over a blocking Iterable.
 *
 * <p>Each page has three templates (head, item, tail) that the page's template calls around its loop
 * ({@code @presentations_head.template()} ...); the fragments render the same templates alone. Rocker names a
 * template's class after its file, so the names are Java identifiers.
 */
public final class RockerEngine implements Engine {

    private static final String DIR = "templates/rocker";
    private static final String PACKAGE = DIR.replace('/', '.');
    private static final List<String> PAGES = List.of("presentations", "stocks");

    /**
     * The generated classes, compiled once when a Rocker template first renders (a holder class: a
     * command that does not render with Rocker does not pay javac's time), with rocker-compiler's own pipeline
     * (parse, generate Java, compile with the JDK's compiler, TemplateCompiler): Rocker's production path generates the sources with its
     * Maven plugin, which jbang cannot run, and its reloading mode needs the plugin's rocker-compiler.conf and
     * re-checks the template files' dates on every render. The templates are on the class path (inside the jar for
     * jbang and the shaded jar), and Rocker parses files, so they are copied to a temporary folder first; javac
     * gets the JVM's class path, so the templates see model.Presentation and model.Stock.
     */
    private static final class Compiled {
        static final ClassLoader CLASSES = compile();

        static final MethodHandle PRESENTATIONS = builder("presentations", Iterable.class);
        static final MethodHandle PRESENTATIONS_HEAD = builder("presentations_head");
        static final MethodHandle PRESENTATIONS_ITEM = builder("presentations_item", Presentation.class);
        static final MethodHandle PRESENTATIONS_TAIL = builder("presentations_tail");
        static final MethodHandle STOCKS = builder("stocks", Iterable.class);
        static final MethodHandle STOCKS_HEAD = builder("stocks_head");
        static final MethodHandle STOCKS_ITEM = builder("stocks_item", Stock.class);
        static final MethodHandle STOCKS_TAIL = builder("stocks_tail");
    }

    /**
     * Outside the holder, each template reached through the holder's constants when it renders: asking which
     * templates Rocker offers (each mode's check, for every engine, when a command lists or validates combinations)
     * must not compile them; the first render does, and serve renders every page before it listens (site.Site), so
     * no request pays for it.
     */
    private static final Templates TEMPLATES = Templates.of("rocker")
            .add(Page.PRESENTATIONS, (items, out) -> render(model(Compiled.PRESENTATIONS, items), out),
                    Templates.Fragments.of(out -> render(model(Compiled.PRESENTATIONS_HEAD), out),
                            (value, out) -> render(model(Compiled.PRESENTATIONS_ITEM, value), out),
                            out -> render(model(Compiled.PRESENTATIONS_TAIL), out)))
            .add(Page.STOCKS, (items, out) -> render(model(Compiled.STOCKS, items), out),
                    Templates.Fragments.of(out -> render(model(Compiled.STOCKS_HEAD), out),
                            (value, out) -> render(model(Compiled.STOCKS_ITEM, value), out),
                            out -> render(model(Compiled.STOCKS_TAIL), out)));

    private static ClassLoader compile() {
        Path work;
        try {
            work = Files.createTempDirectory("pssrbench-rocker");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            ClassLoader classes = compileIn(work);
            // Registered only now: a hook that calls into this class would fail if its initialisation had.
            TempFolders.deleteOnExit(work);
            return classes;
        } catch (RuntimeException | Error e) {
            TempFolders.delete(work);
            throw e;
        }
    }

    private static ClassLoader compileIn(Path work) {
        try {
            RockerConfiguration config = new RockerConfiguration();
            config.setTemplateDirectory(work.resolve("templates").toFile());
            config.setOutputDirectory(work.resolve("java").toFile());
            config.setClassDirectory(work.resolve("classes").toFile());
            // Departs from the default (false): "optimize" has each model construct its template class directly,
            // where by default every render asks RockerRuntime's bootstrap, which finds the class by reflection
            // so that reloading could swap it; nothing reloads here. Kept: HTML escaping by the .rocker.html
            // content type (the summaries are @raw), static text as pre-encoded UTF-8 bytes.
            config.getOptions().setOptimize(true);
            List<File> files = new ArrayList<>();
            for (String page : PAGES) {
                for (String part : List.of("", "_head", "_item", "_tail")) {
                    String name = DIR + "/" + page + part + ".rocker.html";
                    Path file = work.resolve("templates").resolve(name);
                    Files.createDirectories(file.getParent());
                    try (InputStream in = RockerEngine.class.getClassLoader().getResourceAsStream(name)) {
                        if (in == null) {
                            throw new IllegalStateException("rocker: no template " + name + " on the class path");
                        }
                        Files.copy(in, file);
                    }
                    files.add(file.toFile());
                }
            }
            TemplateCompiler compiler = new TemplateCompiler(config);
            List<TemplateCompiler.CompilationUnit> units = compiler.parse(files);
            compiler.generate(units);
            compiler.compile(units);
            return new URLClassLoader(new java.net.URL[] {config.getClassDirectory().toURI().toURL()},
                    RockerEngine.class.getClassLoader());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {   // Rocker's parser and generator throw checked exceptions of their own
            throw new IllegalStateException("rocker: templates failed to compile", e);
        }
    }

    /**
     * The template's static {@code template(...)} builder (the generated classes exist only at run time, so they
     * are reached through a method handle), typed as taking Objects and returning a RockerModel.
     */
    private static MethodHandle builder(String template, Class<?>... args) {
        try {
            Class<?> model = Compiled.CLASSES.loadClass(PACKAGE + "." + template);
            return MethodHandles.publicLookup().findStatic(model, "template", MethodType.methodType(model, args))
                    .asType(MethodType.genericMethodType(args.length).changeReturnType(RockerModel.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("rocker: no compiled template " + template, e);
        }
    }

    @Override
    public String id() {
        return "rocker";
    }

    @Override
    public String description() {
        return "Rocker {com.fizzed:rocker-runtime} (templates compiled to Java at start-up; blocking)";
    }

    @Override
    public Templates templates() {
        return TEMPLATES;
    }

    /** A model from a builder without arguments. */
    private static RockerModel model(MethodHandle builder) {
        try {
            return (RockerModel) builder.invokeExact();
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** A model from a builder with one argument. */
    private static RockerModel model(MethodHandle builder, Object argument) {
        try {
            return (RockerModel) builder.invokeExact(argument);
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** The builders only construct a model: they throw nothing checked. */
    private static RuntimeException unchecked(Throwable e) {
        if (e instanceof Error error) {
            throw error;
        }
        return e instanceof RuntimeException r ? r : new IllegalStateException(e);
    }

    /** Renders a model (single use) straight into the page's Writer. */
    private static void render(RockerModel model, Writer out) {
        model.render((contentType, charset) -> new WriterOutput(contentType, charset, out));
    }

    /**
     * Rocker's outputs are an OutputStream's or a String's; the page is a Writer, so this one writes each piece to
     * it as the template renders it. Static text comes as bytes (Rocker pre-encodes it for byte outputs) and is
     * decoded, as Rocker's own StringBuilderOutput does.
     */
    private static final class WriterOutput extends AbstractRockerOutput<WriterOutput> {
        private final Writer out;

        WriterOutput(ContentType contentType, String charset, Writer out) {
            super(contentType, charset, -1);   // the byte length is not counted, as in StringBuilderOutput
            this.out = out;
        }

        @Override
        public WriterOutput w(String string) throws IOException {
            out.write(string);
            return this;
        }

        @Override
        public WriterOutput w(byte[] bytes) throws IOException {
            out.write(new String(bytes, charset));
            return this;
        }
    }
}
