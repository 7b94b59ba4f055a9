package engines;

import model.Engine;
import model.Page;
import model.Presentation;
import model.Stock;
import model.Templates;
import modes.ReactiveMode;
import modes.SuspendableMode;

import htmlflow.HtmlFlow;
import htmlflow.HtmlFlowExtensionsKt;
import htmlflow.HtmlFlowSuspendingKt;
import htmlflow.HtmlPage;
import htmlflow.HtmlView;
import htmlflow.HtmlViewAsync;
import htmlflow.HtmlViewSuspend;
import io.reactivex.rxjava3.core.Observable;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlin.jvm.functions.Function3;
import kotlinx.coroutines.flow.FlowCollector;
import kotlinx.coroutines.rx3.RxConvertKt;
import org.xmlet.htmlapifaster.Body;
import org.xmlet.htmlapifaster.Div;
import org.xmlet.htmlapifaster.Html;
import org.xmlet.htmlapifaster.Table;
import org.xmlet.htmlapifaster.Element;
import org.xmlet.htmlapifaster.Tbody;

import java.util.concurrent.CompletableFuture;

/**
 * HtmlFlow: templates as a Java DSL. The sync views iterate a blocking Iterable and write each item before asking
 * for the next; the async views ({@code await}) subscribe to the Observable and write each item as it is emitted,
 * on RxJava's thread, with no thread waiting; the suspendable views ({@code viewSuspend}, {@code suspending}: the
 * published study's HtmlFlow-Susp) are Kotlin suspend functions that collect the items as a Flow, suspending while
 * they wait for the next one.
 *
 * <p>Why HtmlFlow 4.7 and not 5.x: the suspendable views are in 4.7's one jar ({@code HtmlViewSuspend},
 * {@code HtmlFlowExtensionsKt.viewSuspend}, {@code HtmlFlowSuspendingKt.suspending}); 5.x moved them to a module
 * {@code htmlflow-kotlin} that is not on Maven Central (checked 2026-11-24: its metadata is a 404 beside htmlflow's
 * 5.0.3, and the 5.0.3 jar has no Suspend class), and two HtmlFlow versions cannot share one class path. 4.7 is the
 * version the study measured, and it keeps every other mode: its sync and async views and its documents
 * ({@code HtmlFlow.doc}) render the same bytes as 5.0.3's did ({@code verify --engine=htmlflow} checks them
 * against the reference pages). What 4.7 lacks is 5.x's {@code ViewFactory} (the same two settings are made on each
 * view below) and 5.x's pre-encoding of static markup (on by default in 5.0.3's factory, which this engine used);
 * 4.7 escapes text with Guava's {@code HtmlEscapers} where 5.0.3 has its own escaper. So the sync, async and
 * document render paths are 4.7's, not 5.0.3's, and their figures are not 5.0.3's. 4.7 also brings Guava and the
 * Kotlin libraries onto the class path.
 */
public final class HtmlFlowEngine implements Engine {

    /**
     * Built when the engine's templates are first asked for (a holder class), not when the registry lists
     * the engine: a command that renders with another engine does not pay for this one.
     */
    private static final class Compiled {
        // Depart from HtmlFlow's defaults: indented=false gives compact markup, byte-identical to the other engines'
        // templates (indentation would put whitespace inside text nodes); thread-safe because a server renders one view
        // concurrently (a visitor per thread for sync views, per call for async and suspendable ones). In 4.7
        // setIndented makes a new view with the same thread-safety, so it comes first.
        static final HtmlView<Iterable<Presentation>> PRESENTATIONS = HtmlFlow.<Iterable<Presentation>>view(
                page -> presentations(page, (Div<?> div) -> div.<Iterable<Presentation>>dynamic(
                        (d, items) -> items.forEach(p -> card(d, p))))).setIndented(false).threadSafe();
        static final HtmlView<Iterable<Stock>> STOCKS = HtmlFlow.<Iterable<Stock>>view(
                page -> stocks(page, (Tbody<?> body) -> body.<Iterable<Stock>>dynamic(
                        (b, items) -> items.forEach(s -> row(b, s))))).setIndented(false).threadSafe();
        static final HtmlViewAsync<Observable<Presentation>> PRESENTATIONS_ASYNC =
                HtmlFlow.<Observable<Presentation>>viewAsync(page -> presentations(page,
                        (Div<?> div) -> div.<Observable<Presentation>>await((d, items, done) -> items
                                .doOnNext(p -> card(d, p))
                                // Errors are reported through the future returned by writeAsync below; without an
                                // error consumer RxJava would report OnErrorNotImplementedException globally.
                                .subscribe(p -> { }, e -> { }, done::finish)))).setIndented(false).threadSafe();
        static final HtmlViewAsync<Observable<Stock>> STOCKS_ASYNC =
                HtmlFlow.<Observable<Stock>>viewAsync(page -> stocks(page,
                        (Tbody<?> body) -> body.<Observable<Stock>>await((b, items, done) -> items
                                .doOnNext(s -> row(b, s))
                                .subscribe(s -> { }, e -> { }, done::finish)))).setIndented(false).threadSafe();
        // The suspendable views, as the study's Kotlin reads
        // `tbody { suspending { m: Flow<Stock> -> m.collect { … } } }`: the block converts the Observable to a Flow
        // (kotlinx-coroutines-rx3, which disposes the subscription when the coroutine is cancelled and throws the
        // Observable's error from collect) and collects it, writing each item when it arrives. collect is the one
        // suspension point, so the block can be a Java lambda that returns it. The model is the items and the
        // render's writer, which the block flushes where SuspendableMode.Suspendable says.
        static final HtmlViewSuspend<Suspended<Presentation>> PRESENTATIONS_SUSPEND =
                HtmlFlowExtensionsKt.viewSuspend(page -> {
                    presentations(page, (Div<?> div) -> HtmlFlowSuspendingKt.suspending(div,
                            HtmlFlowEngine.<Div<?>, Presentation>collect(HtmlFlowEngine::card)));
                    return Unit.INSTANCE;
                }, false, true);
        static final HtmlViewSuspend<Suspended<Stock>> STOCKS_SUSPEND =
                HtmlFlowExtensionsKt.viewSuspend(page -> {
                    stocks(page, (Tbody<?> body) -> HtmlFlowSuspendingKt.suspending(body,
                            HtmlFlowEngine.<Tbody<?>, Stock>collect(HtmlFlowEngine::row)));
                    return Unit.INSTANCE;
                }, false, true);
        static final Templates TEMPLATES = Templates.of("htmlflow")
                .add(Page.PRESENTATIONS, (items, out) -> PRESENTATIONS.setOut(out).write(items),
                        new DocFragments<Presentation, Div<Body<Html<HtmlPage>>>>(HtmlFlowEngine::presentationsHead,
                                HtmlFlowEngine::card, container -> container.__().__().__()))
                .add(ReactiveMode.nonBlocking(Page.PRESENTATIONS),
                        (items, out) -> writeAsync(PRESENTATIONS_ASYNC, items, out))
                .add(SuspendableMode.suspendable(Page.PRESENTATIONS), (items, out, continuation) ->
                        PRESENTATIONS_SUSPEND.write(out, new Suspended<>(items, out), continuation))
                .add(Page.STOCKS, (items, out) -> STOCKS.setOut(out).write(items),
                        new DocFragments<Stock, Tbody<Table<Body<Html<HtmlPage>>>>>(HtmlFlowEngine::stocksHead,
                                HtmlFlowEngine::row, tbody -> tbody.__().__().__().__()))
                .add(ReactiveMode.nonBlocking(Page.STOCKS), (items, out) -> writeAsync(STOCKS_ASYNC, items, out))
                .add(SuspendableMode.suspendable(Page.STOCKS), (items, out, continuation) ->
                        STOCKS_SUSPEND.write(out, new Suspended<>(items, out), continuation));
    }

    /** A suspendable view's model: the page's items, and the writer the view writes to (flushed between items). */
    private record Suspended<T>(Observable<T> items, Appendable out) {
    }

    /**
     * The suspending block that writes each item of the Observable, as a Flow, into {@code element}, and flushes
     * where it is about to wait (SuspendableMode.Suspendable): before the first item and after each one, in the
     * coroutine, so the flush and the writes it sends are always on the same thread, one after the other.
     */
    private static <E, T> Function3<E, Suspended<T>, Continuation<? super Unit>, Object> collect(
            java.util.function.BiConsumer<E, T> item) {
        return (element, model, continuation) -> {
            flush(model.out());
            return RxConvertKt.asFlow(model.items()).collect(
                    (FlowCollector<T>) (value, c) -> {
                        item.accept(element, value);
                        flush(model.out());
                        return Unit.INSTANCE;
                    }, continuation);
        };
    }

    /** Flushes {@code out} when it can be (the mode's writer); an I/O failure (the client gone) fails the render. */
    private static void flush(Appendable out) {
        if (out instanceof java.io.Flushable f) {
            try {
                f.flush();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    @Override
    public String id() {
        return "htmlflow";
    }

    @Override
    public String description() {
        return "HtmlFlow {com.github.xmlet:htmlflow} (Java DSL; sync views, async views over the Observable, and"
                + " suspendable views on Kotlin coroutines {org.jetbrains.kotlinx:kotlinx-coroutines-core})";
    }

    /**
     * The fragments, in HtmlFlow's own way of writing a part of a page: a document ({@link HtmlFlow#doc}) writes
     * each element as the code builds it, so the head opens the page up to the element that holds the items and
     * leaves it open, each item is built into that open element when it arrives, and the tail closes it. The open
     * element is state of one render, so each render gets its own instance ({@link #start}).
     */
    private static final class DocFragments<T, E> implements Templates.Fragments<T> {
        private final java.util.function.Function<HtmlPage, E> head;
        private final java.util.function.BiConsumer<E, T> item;
        private final java.util.function.Consumer<E> tail;
        private E open;

        DocFragments(java.util.function.Function<HtmlPage, E> head, java.util.function.BiConsumer<E, T> item,
                     java.util.function.Consumer<E> tail) {
            this.head = head;
            this.item = item;
            this.tail = tail;
        }

        @Override
        public Templates.Fragments<T> start() {
            return new DocFragments<>(head, item, tail);
        }

        @Override
        public void head(java.io.Writer out) {
            // Departs from the document's default (indented) for the same reason as VIEWS above.
            open = head.apply(HtmlFlow.doc(out).setIndented(false));
        }

        @Override
        public void item(T value, java.io.Writer out) {
            item.accept(open, value);
        }

        @Override
        public void tail(java.io.Writer out) {
            tail.accept(open);
        }
    }

    @Override
    public Templates templates() {
        return Compiled.TEMPLATES;
    }

    /**
     * HtmlFlow's await has no error channel: its future never completes when the Observable fails. This future
     * does, exceptionally, so the server can abort the response instead of ending it as if complete.
     */
    private static <T> CompletableFuture<Void> writeAsync(HtmlViewAsync<Observable<T>> view, Observable<T> items,
                                                          Appendable out) {
        CompletableFuture<Void> failed = new CompletableFuture<>();
        CompletableFuture<Void> written = view.writeAsync(out, items.doOnError(failed::completeExceptionally));
        return CompletableFuture.anyOf(written, failed).thenApply(done -> null);
    }

    // ---- the templates: the same markup as templates/jstachio/*.mustache and templates/pebble/*.peb ----

    private interface Slot<E> {
        void fill(E element);
    }

    private static void presentations(HtmlPage page, Slot<Div<?>> cards) {
        var container = presentationsHead(page);
        cards.fill(container);
        container.__().__().__();
    }

    /** The page up to its list of cards, whose container is left open. */
    private static Div<Body<Html<HtmlPage>>> presentationsHead(HtmlPage page) {
        return page.html().attrLang("en-us")
                .head()
                    .meta().attrCharset("UTF-8").__()
                    .meta().attrName("viewport").attrContent("width=device-width, initial-scale=1.0").__()
                    .meta().addAttr("http-equiv", "X-UA-Compatible").attrContent("IE=Edge").__()
                    .title().text("JFall 2013 Presentations").__()
                    .link().addAttr("rel", "stylesheet").attrHref("/webjars/bootstrap/5.3.0/css/bootstrap.min.css").__()
                .__()
                .body()
                    .div().attrClass("container")
                        .div().attrClass("pb-2 mt-4 mb-3 border-bottom").h1().text("JFall 2013 Presentations").__().__();
    }

    private static void card(Div<?> container, Presentation p) {
        container.div().attrClass("card mb-3 shadow-sm rounded")
                .div().attrClass("card-header")
                    .h5().attrClass("card-title").text(p.title() + " - " + p.speakerName()).__()
                .__()
                .div().attrClass("card-body").raw(p.summary()).__()
            .__();
    }

    private static void stocks(HtmlPage page, Slot<Tbody<?>> rows) {
        var tbody = stocksHead(page);
        rows.fill(tbody);
        tbody.__().__().__().__();
    }

    /** The page up to its rows, whose tbody is left open. */
    private static Tbody<Table<Body<Html<HtmlPage>>>> stocksHead(HtmlPage page) {
        return page.html()
                .head()
                    .title().text("Stock Prices").__()
                    .meta().addAttr("http-equiv", "Content-Type").attrContent("text/html; charset=UTF-8").__()
                    .link().addAttr("rel", "shortcut icon").attrHref("/images/favicon.ico").__()
                    .link().addAttr("rel", "stylesheet").addAttr("type", "text/css").attrHref("/css/style.css")
                        .addAttr("media", "all").__()
                    .script().addAttr("type", "text/javascript").attrSrc("/js/util.js").__()
                    .style().raw(Page.STOCKS_STYLE).__()
                .__()
                .body()
                    .h1().text("Stock Prices").__()
                    .table()
                        .thead().tr()
                            .th().text("#").__().th().text("symbol").__().th().text("name").__()
                            .th().text("price").__().th().text("change").__().th().text("ratio").__()
                        .__().__()
                        .tbody();
    }

    private static void row(Tbody<?> body, Stock s) {
        var tr = body.tr().attrClass(s.rowClass())
                .td().text(String.valueOf(s.index())).__()
                .td().a().attrHref("/stocks/" + s.symbol()).text(s.symbol()).__().__()
                .td().a().attrHref(s.url()).text(s.name()).__().__()
                .td().strong().text(String.valueOf(s.price())).__().__();
        var change = tr.td();
        if (s.changeNegative()) {
            change.attrClass("minus");
        }
        change.text(String.valueOf(s.change())).__();
        var ratio = tr.td();
        if (s.ratioNegative()) {
            ratio.attrClass("minus");
        }
        ratio.text(String.valueOf(s.ratio())).__();
        tr.__();
    }
}
