package engines;

import cli.Registry;
import model.Engine;
import model.Page;
import model.Templates;
import modes.ReactiveMode;
import site.Combination;
import verify.Verifier;

import io.reactivex.rxjava3.core.Observable;
import kotlinx.html.DIV;
import kotlinx.html.TBODY;
import kotlinx.html.TagConsumer;
import kotlinx.html.stream.StreamKt;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import static engines.KotlinxEngine.block;
import static kotlinx.html.Gen_attr_traitsKt.setLang;
import static kotlinx.html.Gen_consumer_tagsKt.html;
import static kotlinx.html.Gen_tag_groupsKt.div;
import static kotlinx.html.Gen_tag_groupsKt.table;
import static kotlinx.html.Gen_tag_unionsKt.h1;
import static kotlinx.html.Gen_tags_hKt.body;
import static kotlinx.html.Gen_tags_hKt.head;
import static kotlinx.html.Gen_tags_tKt.tbody;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Why {@code kotlinx} has no reactive template: the published study's way of writing one
 * ({@code PresentationsKotlinX.kotlinXReactive}: subscribe to the Observable inside the block that holds the items
 * and return) closes the page before the items arrive and then writes them, from the data source's thread, into a
 * consumer whose page has ended. verify must refuse it, as it refused the study's route; the same markup written
 * the engine's way (every tag inside its parent's block, on the render's thread) passes verify in every mode
 * ({@code pssrbench verify --engine=kotlinx}; tests/modes/MatrixTest serves its modes).
 * (What verify said on 2026-11-24: "presentations: body differs from the engines' rendering (… first difference at
 * byte 419: 'ntations&lt;/h1&gt;&lt;/div&gt;&lt;/div&gt;&lt;/body&gt;&lt;/html&gt;&lt;div class="card mb-3')",
 * the tail before the first card, and 20 of 20 concurrent requests returned another body.)
 */
class KotlinxEngineTest {

    /** kotlinx's own templates, plus a non-blocking one in the study's shape (test only). */
    private static final class StudyReactiveEngine implements Engine {
        private final Engine kotlinx = Registry.engine("kotlinx");
        private final Templates templates = Templates.of(id())
                .add(Page.PRESENTATIONS, kotlinx.templates().blocking(Page.PRESENTATIONS),
                        kotlinx.templates().fragments(Page.PRESENTATIONS))
                .add(ReactiveMode.nonBlocking(Page.PRESENTATIONS), (items, out) -> subscribedInside(out, items,
                        (StudyTemplate<DIV>) (page, cards) -> html(page, null, block(html -> {
                            setLang(html, "en-us");
                            head(html, block(KotlinxEngine::presentationsHead));
                            body(html, null, block(body -> div(body, "container", block(container -> {
                                KotlinxEngine.presentationsHeading(container);
                                cards.accept(container);
                            }))));
                        })), KotlinxEngine::card))
                .add(Page.STOCKS, kotlinx.templates().blocking(Page.STOCKS), kotlinx.templates().fragments(Page.STOCKS))
                .add(ReactiveMode.nonBlocking(Page.STOCKS), (items, out) -> subscribedInside(out, items,
                        (StudyTemplate<TBODY>) (page, rows) -> html(page, null, block(html -> {
                            head(html, block(KotlinxEngine::stocksHead));
                            body(html, null, block(body -> {
                                h1(body, null, KotlinxEngine.text("Stock Prices"));
                                table(body, null, block(table -> {
                                    KotlinxEngine.stocksColumns(table);
                                    tbody(table, null, block(rows));
                                }));
                            }));
                        })), KotlinxEngine::row));

        @Override
        public String id() {
            return "kotlinx-study-reactive";
        }

        @Override
        public String description() {
            return "kotlinx.html with the study's reactive template (test only)";
        }

        @Override
        public Templates templates() {
            return templates;
        }
    }

    /** A page on a consumer, with {@code items} called where the items go, given the element that holds them. */
    private interface StudyTemplate<E> {
        void render(TagConsumer<Appendable> page, Consumer<E> items);
    }

    /**
     * The study's shape: the page's blocks run on the calling thread and return; where the items go, the template
     * subscribes to the Observable and returns at once, so each item is written later, on the data source's thread.
     */
    private static <T, E> CompletableFuture<Void> subscribedInside(Appendable out, Observable<T> items,
                                                                   StudyTemplate<E> template, BiConsumer<E, T> item) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            out.append(KotlinxEngine.DOCTYPE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        template.render(StreamKt.appendHTML(out, false, false), parent -> items.subscribe(
                value -> item.accept(parent, value), done::completeExceptionally, () -> done.complete(null)));
        return done;
    }

    @Test
    void theStudysReactiveTemplateFailsVerify() {
        Engine study = new StudyReactiveEngine();
        Verifier verifier = new Verifier(List.of(Registry.engine("kotlinx"), study), Duration.ofMillis(25), 20);
        Verifier.Result result = verifier.verify(new Combination(Registry.server("nima"), study,
                Registry.mode("reactive")));
        assertFalse(result.ok(), "the study's template passed verify");
        assertTrue(result.allProblems().stream()
                .anyMatch(p -> p.contains("body differs from the engines' rendering")), result.allProblems()::toString);
    }
}
