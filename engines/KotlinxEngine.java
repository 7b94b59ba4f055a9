package engines;

import model.Engine;
import model.Page;
import model.Presentation;
import model.Stock;
import model.Templates;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;
import kotlinx.html.BODY;
import kotlinx.html.DIV;
import kotlinx.html.FlowContent;
import kotlinx.html.HEAD;
import kotlinx.html.HTML;
import kotlinx.html.TABLE;
import kotlinx.html.TBODY;
import kotlinx.html.Tag;
import kotlinx.html.TagConsumer;
import kotlinx.html.stream.StreamKt;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

import static kotlinx.html.ApiKt.attributesMapOf;
import static kotlinx.html.ApiKt.getEmptyMap;
import static kotlinx.html.ApiKt.unsafe;
import static kotlinx.html.Gen_attr_traitsKt.setLang;
import static kotlinx.html.Gen_consumer_tagsKt.html;
import static kotlinx.html.Gen_tag_groupsKt.div;
import static kotlinx.html.Gen_tag_groupsKt.table;
import static kotlinx.html.Gen_tag_groupsKt.title;
import static kotlinx.html.Gen_tag_unionsKt.a;
import static kotlinx.html.Gen_tag_unionsKt.h1;
import static kotlinx.html.Gen_tag_unionsKt.h5;
import static kotlinx.html.Gen_tag_unionsKt.link;
import static kotlinx.html.Gen_tag_unionsKt.meta;
import static kotlinx.html.Gen_tag_unionsKt.script;
import static kotlinx.html.Gen_tag_unionsKt.strong;
import static kotlinx.html.Gen_tag_unionsKt.style;
import static kotlinx.html.Gen_tags_hKt.body;
import static kotlinx.html.Gen_tags_hKt.head;
import static kotlinx.html.Gen_tags_tKt.tbody;
import static kotlinx.html.Gen_tags_tKt.td;
import static kotlinx.html.Gen_tags_tKt.th;
import static kotlinx.html.Gen_tags_tKt.thead;
import static kotlinx.html.Gen_tags_tKt.tr;

/**
 * kotlinx.html: HTML as a Kotlin DSL, driven here from Java (jbang cannot compile Kotlin inside a Java script). Its
 * tags are static methods on generated holder classes ({@code Gen_tag_groupsKt.div(parent, classes, block)}) whose
 * blocks are lambdas returning {@code kotlin.Unit}; {@link #block} adapts a Java lambda to that. The pages stream
 * through {@code appendHTML(writer)}'s TagConsumer, which writes each tag as it opens and closes, so each item's
 * markup is out before the loop asks for the next: progressive over a blocking Iterable. Its blocks are ordinary
 * (not suspending) functions, so there is no non-blocking template: the reactive mode does not apply.
 *
 * <p><b>Concurrency.</b> The published study's {@code /kotlinx} WebFlux route gave varying, corrupted bodies under
 * concurrent load and threw {@code IllegalStateException} from kotlinx's {@code DelayedConsumer}. Its template
 * ({@code PresentationsKotlinX.kotlinXReactive}) subscribed to the Observable inside the container's block and
 * returned, so the blocks closed the container, body and html on the request's thread while RxJava's io scheduler
 * (the data source's delay) wrote the cards into the same consumer afterwards, or during. {@code appendHTML} wraps
 * the stream writer in a {@code DelayedConsumer}, a single-threaded state machine: it keeps the last opened tag in
 * a plain field ({@code delayed}) until its first child or its end, so that the block can still set attributes,
 * and refuses an attribute change on any other tag ("You can't change tag attribute because it was already passed
 * to the downstream"). Two threads on one consumer race on that field (and on the stream builder's depth and the
 * output). A probe of that shape on this machine (a consumer per render, ten cards 1 ms apart on the io scheduler,
 * 2,000 renders 40 at a time into a thread-safe StringBuffer, 2026-11-24): the tail came before the first card in
 * 1,866 renders, the bodies took 18 different shapes, one render threw that exception. A card that threw ended the
 * Observable in an error the route did not handle, so its sink was never closed and the response hung. verify
 * refuses a template of that shape (tests/engines/KotlinxEngineTest).
 *
 * <p>Here nothing is shared and nothing is written after its block returns: every render (and every
 * {@code fragments} render, {@link OpenFragments#start}) makes its own consumer over its own Writer, every tag is
 * written inside its parent's block on the render's thread, and the fragments mode calls head, items and tail one
 * after another (RxJava's observer contract), never at once.
 */
public final class KotlinxEngine implements Engine {

    @Override
    public String id() {
        return "kotlinx";
    }

    @Override
    public String description() {
        return "kotlinx.html {org.jetbrains.kotlinx:kotlinx-html-jvm} (Kotlin DSL driven from Java,"
                + " streamed by appendHTML's TagConsumer; blocking)";
    }

    private static final Templates TEMPLATES = Templates.of("kotlinx")
            .add(Page.PRESENTATIONS, KotlinxEngine::presentations,
                    new OpenFragments<Presentation, DIV>(KotlinxEngine::presentationsOpen, KotlinxEngine::card))
            .add(Page.STOCKS, KotlinxEngine::stocks,
                    new OpenFragments<Stock, TBODY>(KotlinxEngine::stocksOpen, KotlinxEngine::row));

    @Override
    public Templates templates() {
        return TEMPLATES;
    }

    // ---- the templates: the same markup as templates/jstachio/*.mustache ----
    // (package-private parts: tests/engines/KotlinxEngineTest builds the study's template from the same parts)

    /**
     * kotlinx.html writes no doctype: its stream builder starts at the first tag (its own tests compare pages
     * without one), and the user writes it first, as here.
     */
    static final String DOCTYPE = "<!DOCTYPE html>";

    /** A fresh consumer for one render: prettyPrint=false (no whitespace between tags), HTML rather than XHTML. */
    private static TagConsumer<Writer> page(Writer out) throws IOException {
        out.write(DOCTYPE);
        return StreamKt.appendHTML(out, false, false);
    }

    private static void presentations(Iterable<Presentation> items, Writer out) throws IOException {
        html(page(out), null, block(html -> {
            setLang(html, "en-us");
            head(html, block(KotlinxEngine::presentationsHead));
            body(html, null, block(body -> div(body, "container", block(container -> {
                presentationsHeading(container);
                for (Presentation p : items) {
                    card(container, p);
                }
            }))));
        }));
    }

    static void presentationsHead(HEAD head) {
        meta(head, null, null, "UTF-8", NOTHING);
        meta(head, "viewport", "width=device-width, initial-scale=1.0", null, NOTHING);
        // Attributes set in the block are written in the order they are set (the functions' own parameters come
        // in their declared order, e.g. href before rel), so that they match the other engines' markup.
        meta(head, null, null, null, block(meta -> {
            meta.setHttpEquiv("X-UA-Compatible");
            meta.setContent("IE=Edge");
        }));
        title(head, "JFall 2013 Presentations");
        link(head, null, null, null, null, block(link -> {
            link.setRel("stylesheet");
            link.setHref("/webjars/bootstrap/5.3.0/css/bootstrap.min.css");
        }));
    }

    static void presentationsHeading(DIV container) {
        div(container, "pb-2 mt-4 mb-3 border-bottom", block(div -> h1(div, null, text("JFall 2013 Presentations"))));
    }

    static void card(FlowContent container, Presentation p) {
        div(container, "card mb-3 shadow-sm rounded", block(card -> {
            div(card, "card-header", block(header ->
                    h5(header, "card-title", text(p.title() + " - " + p.speakerName()))));
            div(card, "card-body", block(body -> unsafe(body, block(html -> html.raw(p.summary())))));
        }));
    }


    private static final List<String> COLUMNS = List.of("#", "symbol", "name", "price", "change", "ratio");

    private static void stocks(Iterable<Stock> items, Writer out) throws IOException {
        html(page(out), null, block(html -> {
            head(html, block(KotlinxEngine::stocksHead));
            body(html, null, block(body -> {
                h1(body, null, text("Stock Prices"));
                table(body, null, block(table -> {
                    stocksColumns(table);
                    tbody(table, null, block(tbody -> {
                        for (Stock s : items) {
                            row(tbody, s);
                        }
                    }));
                }));
            }));
        }));
    }

    static void stocksHead(HEAD head) {
        title(head, "Stock Prices");
        meta(head, null, null, null, block(meta -> {
            meta.setHttpEquiv("Content-Type");
            meta.setContent("text/html; charset=UTF-8");
        }));
        link(head, null, null, null, null, block(link -> {
            link.setRel("shortcut icon");
            link.setHref("/images/favicon.ico");
        }));
        link(head, null, null, null, null, block(link -> {
            link.setRel("stylesheet");
            link.setType("text/css");
            link.setHref("/css/style.css");
            link.setMedia("all");
        }));
        script(head, "text/javascript", "/js/util.js", null, NOTHING);
        style(head, null, block(style -> unsafe(style, block(css -> css.raw(Page.STOCKS_STYLE)))));
    }

    static void stocksColumns(TABLE table) {
        thead(table, null, block(thead -> tr(thead, null, block(tr -> {
            for (String column : COLUMNS) {
                th(tr, null, null, text(column));
            }
        }))));
    }

    static void row(TBODY tbody, Stock s) {
        tr(tbody, s.rowClass(), block(tr -> {
            td(tr, null, text(String.valueOf(s.index())));
            td(tr, null, block(td -> a(td, "/stocks/" + s.symbol(), null, null, null, text(s.symbol()))));
            td(tr, null, block(td -> a(td, s.url(), null, null, null, text(s.name()))));
            td(tr, null, block(td -> strong(td, null, text(String.valueOf(s.price())))));
            td(tr, s.changeNegative() ? "minus" : null, text(String.valueOf(s.change())));
            td(tr, s.ratioNegative() ? "minus" : null, text(String.valueOf(s.ratio())));
        }));
    }

    // ---- the fragments ----

    /**
     * Presentations up to its cards: the page's own parts, with html, body and the container opened on the
     * consumer (left open for the cards) where the page above visits them with a block.
     */
    private static DIV presentationsOpen(Open page) {
        HTML html = page.open(new HTML(getEmptyMap(), page.consumer, null));
        setLang(html, "en-us");
        head(html, block(KotlinxEngine::presentationsHead));
        page.open(new BODY(getEmptyMap(), page.consumer));
        DIV container = page.open(new DIV(attributesMapOf("class", "container"), page.consumer));
        presentationsHeading(container);
        return container;
    }

    /** Stocks up to its rows, the tbody left open. */
    private static TBODY stocksOpen(Open page) {
        HTML html = page.open(new HTML(getEmptyMap(), page.consumer, null));
        head(html, block(KotlinxEngine::stocksHead));
        BODY body = page.open(new BODY(getEmptyMap(), page.consumer));
        h1(body, null, text("Stock Prices"));
        TABLE table = page.open(new TABLE(getEmptyMap(), page.consumer));
        stocksColumns(table);
        return page.open(new TBODY(getEmptyMap(), page.consumer));
    }

    /**
     * One render's consumer and the tags it has opened but not closed. kotlinx.html visits a tag by telling its
     * consumer that it starts, running its block, and telling it that it ends ({@code visitTag}); a fragment cannot
     * return from inside a block, so the head does the first step of that for the elements that enclose the items
     * ({@link #open}) and the tail the last ({@link #closeAll}). Everything inside them is the DSL.
     */
    private static final class Open {
        final TagConsumer<Writer> consumer;
        private final Deque<Tag> open = new ArrayDeque<>();

        Open(Writer out) throws IOException {
            consumer = page(out);
        }

        <T extends Tag> T open(T tag) {
            consumer.onTagStart(tag);
            open.push(tag);
            return tag;
        }

        void closeAll() {
            while (!open.isEmpty()) {
                consumer.onTagEnd(open.pop());
            }
            consumer.finalize();
        }
    }

    /**
     * The fragments in kotlinx.html's own way: one consumer over the response's Writer for the whole render, the
     * head opening the page up to the element that holds the items, each item built into that element with the
     * same function the page uses, and the tail closing what the head opened. The consumer is state of one render,
     * so each render gets its own instance ({@link #start}).
     */
    private static final class OpenFragments<T, E> implements Templates.Fragments<T> {
        private final Function<Open, E> head;
        private final BiConsumer<E, T> item;
        private Open page;
        private E items;

        OpenFragments(Function<Open, E> head, BiConsumer<E, T> item) {
            this.head = head;
            this.item = item;
        }

        @Override
        public Templates.Fragments<T> start() {
            return new OpenFragments<>(head, item);
        }

        @Override
        public void head(Writer out) throws IOException {
            page = new Open(out);
            items = head.apply(page);
        }

        @Override
        public void item(T value, Writer out) {
            item.accept(items, value);
        }

        @Override
        public void tail(Writer out) {
            page.closeAll();
        }
    }

    // ---- Kotlin blocks from Java lambdas ----

    /** A tag's block, which kotlinx.html takes as a Kotlin function returning Unit. */
    static <T> Function1<T, Unit> block(Consumer<T> body) {
        return tag -> {
            body.accept(tag);
            return Unit.INSTANCE;
        };
    }

    /** A block whose tag holds only this (escaped) text. */
    static Function1<Tag, Unit> text(String text) {
        return block(tag -> tag.text(text));
    }

    /** The block of a tag with no content. */
    private static final Function1<Object, Unit> NOTHING = tag -> Unit.INSTANCE;
}
