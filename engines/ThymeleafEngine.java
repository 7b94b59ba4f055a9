package engines;

import model.Engine;
import model.Page;
import model.Streaming;
import model.Templates;
import io.reactivex.rxjava3.core.Observable;
import modes.ReactiveMode;
import org.thymeleaf.IThrottledTemplateProcessor;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import org.thymeleaf.engine.DataDrivenTemplateIterator;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

import java.io.Flushable;
import java.io.IOException;
import java.io.Writer;
import java.nio.CharBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Logger;

/**
 * Thymeleaf (no Spring): natural HTML templates interpreted at run time. {@code process} over a blocking Iterable
 * renders each item one item late ({@code th:each} asks for the next item first). The non-blocking template is
 * Thymeleaf's own data-driven, throttled processing, what its Spring WebFlux integration does, rebuilt on the core
 * classes: the page is processed step by step, the head before the data, then one step per emitted item, then the
 * tail (the published study's "Thymeleaf-Rx").
 */
public final class ThymeleafEngine implements Engine {

    // Departs from the resolver's defaults only in naming the encoding (the default is the platform's); HTML mode,
    // the standard dialect with its escaping (th:text; the summaries use th:utext) and the template cache are kept.
    private static final TemplateEngine THYMELEAF = new TemplateEngine();

    /**
     * Thymeleaf logs every failed render at ERROR before rethrowing the exception (TemplateEngine.process and the
     * throttled processor, both on this logger); the render reports each failure itself, in one line, at FINE
     * when the client went away (model.Render), so records with an exception are dropped here. A filter, not a
     * level: the commands reset the logging configuration (site.Logs) after the engines exist, which clears levels
     * but keeps filters. Kept in a field because java.util.logging holds loggers weakly.
     */
    private static final Logger THYMELEAF_LOG = Logger.getLogger(TemplateEngine.class.getName());

    static {
        THYMELEAF_LOG.setFilter(record -> record.getThrown() == null);
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver();
        resolver.setPrefix("templates/thymeleaf/");
        resolver.setSuffix(".html");
        resolver.setTemplateMode(TemplateMode.HTML);
        resolver.setCharacterEncoding("UTF-8");
        THYMELEAF.setTemplateResolver(resolver);
    }

    @Override
    public String id() {
        return "thymeleaf";
    }

    @Override
    public String description() {
        return "Thymeleaf {org.thymeleaf:thymeleaf} (natural HTML templates interpreted at run time; blocking,"
                + " renders one item late; non-blocking through its data-driven throttled processing)";
    }

    @Override
    public Streaming streaming() {
        // IteratedGatheringModelProcessable.process: next(), then hasNext() to pick the middle or last iteration
        // model (its whitespace handling) before it renders the current item.
        return Streaming.lookahead(1);
    }

    // Each page names its parts as th:fragment blocks (head, item, tail) that render in place; the fragments
    // process the same template with a fragment selector each ("%head" matches th:fragment="head" only; a plain
    // "head" would also match the <head> element). The head and the tail are not balanced elements: the HTML
    // parser auto-closes what the head block leaves open with synthetic tags that are never written, and passes
    // the tail's unmatched closing tags through as they are.
    private static final Templates TEMPLATES = Templates.of("thymeleaf")
            .add(Page.PRESENTATIONS, (items, out) -> page(Page.PRESENTATIONS, items, out),
                    fragments(Page.PRESENTATIONS, "p"))
            .add(ReactiveMode.nonBlocking(Page.PRESENTATIONS),
                    (items, out) -> dataDriven(Page.PRESENTATIONS, items, out))
            .add(Page.STOCKS, (items, out) -> page(Page.STOCKS, items, out), fragments(Page.STOCKS, "s"))
            .add(ReactiveMode.nonBlocking(Page.STOCKS), (items, out) -> dataDriven(Page.STOCKS, items, out));

    @Override
    public Templates templates() {
        return TEMPLATES;
    }

    private static void page(Page<?> page, Iterable<?> items, Writer out) {
        Context context = new Context();
        context.setVariable("items", items);
        THYMELEAF.process(page.id(), context, out);
    }

    private static <T> Templates.Fragments<T> fragments(Page<T> page, String itemVariable) {
        return Templates.Fragments.of(
                out -> THYMELEAF.process(page.id(), Set.of("%head"), new Context(), out),
                (item, out) -> {
                    Context context = new Context();
                    context.setVariable(itemVariable, item);
                    THYMELEAF.process(page.id(), Set.of("%item"), context, out);
                },
                out -> THYMELEAF.process(page.id(), Set.of("%tail"), new Context(), out));
    }

    /**
     * The page processed in steps: the items are a {@link DataDrivenTemplateIterator}, which {@code th:each}
     * recognises and pauses on while it is empty. The head is processed here, before subscribing (up to the point
     * where the loop first asks for data), each item in onNext as the Observable emits it, the tail on completion.
     * The processor is state of one render; Observable callbacks are serialised, so it is never used concurrently.
     */
    private static <T> CompletableFuture<Void> dataDriven(Page<T> page, Observable<T> items, Appendable out) {
        Writer writer = writer(out);
        DataDrivenTemplateIterator data = new DataDrivenTemplateIterator();
        Context context = new Context();
        context.setVariable("items", data);
        IThrottledTemplateProcessor processor = THYMELEAF.processThrottled(page.id(), context);
        // No output limit: a step ends where the template waits for data, not at a size.
        do {
            processor.process(Integer.MAX_VALUE, writer);
        } while (!processor.isFinished() && !data.hasBeenQueried());

        CompletableFuture<Void> done = new CompletableFuture<>();
        items.subscribe(item -> {   // a template error here disposes the source and goes to the error callback
            data.feedBuffer(List.of(item));
            do {
                processor.process(Integer.MAX_VALUE, writer);
            } while (!processor.isFinished() && data.continueBufferExecution());
        }, done::completeExceptionally, () -> {
            try {
                data.feedingComplete();
                do {
                    processor.process(Integer.MAX_VALUE, writer);
                } while (!processor.isFinished());
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** Thymeleaf writes to a Writer; the non-blocking contract hands an Appendable (in practice a Writer). */
    private static Writer writer(Appendable out) {
        if (out instanceof Writer writer) {
            return writer;
        }
        return new Writer() {
            @Override
            public void write(char[] chars, int off, int len) throws IOException {
                out.append(CharBuffer.wrap(chars, off, len));
            }

            @Override
            public void flush() throws IOException {
                if (out instanceof Flushable flushable) {
                    flushable.flush();
                }
            }

            @Override
            public void close() {
            }
        };
    }
}
