package model;

import base.UsageException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A benchmark page as data: its id and route, its items' type and data set (a classpath resource copied from the
 * published benchmark), and where its items sit in the rendered markup (for verification). Engines render a page
 * through the template they register for it (model.Templates), so a new page is one constant here, its data and
 * reference, and a template per engine: no engine interface changes.
 *
 * @param <T> the type of the page's items
 */
public final class Page<T> {

    public static final Page<Presentation> PRESENTATIONS = new Page<>("presentations", "JFall 2013 Presentations",
            "div.card", "<div class=\"card ", "</div></body>", Presentation.class);
    public static final Page<Stock> STOCKS = new Page<>("stocks", "Stock Prices", "tbody > tr", "<tr class=\"",
            "</tbody>", Stock.class);

    private static final Page<?>[] ALL = {PRESENTATIONS, STOCKS};


    /**
     * The Stocks page's inline stylesheet, as the reference page has it (CDATA markers and tabs included): the
     * engines whose templates are Java code (HtmlFlow, kotlinx.html) write it as is; the others have it in their
     * template files.
     */
    public static final String STOCKS_STYLE = """

            /*<![CDATA[*/
            body {
            \tcolor: #333333;
            \tline-height: 150%;
            }

            thead {
            \tfont-weight: bold;
            \tbackground-color: #CCCCCC;
            }

            .odd {
            \tbackground-color: #FFCCCC;
            }

            .even {
            \tbackground-color: #CCCCFF;
            }

            .minus {
            \tcolor: #FF0000;
            }

            /*]]>*/
            """;

    private final String id;
    private final String title;
    private final String itemSelector;
    private final String itemStart;
    private final String tailStart;
    private final Class<T> itemType;
    private final List<T> items;

    private Page(String id, String title, String itemSelector, String itemStart, String tailStart, Class<T> itemType) {
        this.id = id;
        this.title = title;
        this.itemSelector = itemSelector;
        this.itemStart = itemStart;
        this.tailStart = tailStart;
        this.itemType = itemType;
        this.items = load("/data/" + id + ".json", itemType);
    }

    /** Every page, in the order they are listed. */
    public static Page<?>[] values() {
        return ALL.clone();
    }

    /** Stable lower-case id: route, flag value, file name. */
    public String id() {
        return id;
    }

    public String path() {
        return "/" + id;
    }

    /** The page title every engine prints (the reference comparison ignores the lines that hold it). */
    public String title() {
        return title;
    }

    /** A CSS selector matching one element per item in the rendered page (verify counts them). */
    public String itemSelector() {
        return itemSelector;
    }

    /**
     * Where each item's markup ends in the rendered page (a byte offset), so that a client can tell when an
     * item's markup had fully arrived.
     */
    public int[] itemEnds(byte[] rendered) {
        int[] bounds = boundaries(new String(rendered, java.nio.charset.StandardCharsets.ISO_8859_1));   // 1 char = 1 byte
        return Arrays.copyOfRange(bounds, 1, bounds.length);
    }

    /** A rendered page cut into its head, one piece of markup per item, and its tail. */
    public List<String> segments(String rendered) {
        int[] bounds = boundaries(rendered);
        List<String> pieces = new java.util.ArrayList<>(bounds.length + 1);
        pieces.add(rendered.substring(0, bounds[0]));
        for (int i = 1; i < bounds.length; i++) {
            pieces.add(rendered.substring(bounds[i - 1], bounds[i]));
        }
        pieces.add(rendered.substring(bounds[bounds.length - 1]));
        return List.copyOf(pieces);
    }

    /** Where the first item starts, then where each item ends (the last one where the tail starts). */
    private int[] boundaries(String page) {
        int[] bounds = new int[items.size() + 1];
        bounds[0] = page.indexOf(itemStart);
        for (int i = 1; i < bounds.length; i++) {
            int start = bounds[i - 1];
            bounds[i] = i < items.size() ? page.indexOf(itemStart, start + 1) : page.lastIndexOf(tailStart);
            if (start < 0 || bounds[i] < start) {
                throw new IllegalArgumentException("not a rendered " + id + " page with " + items.size() + " items");
            }
        }
        return bounds;
    }

    /** The data set, in order; immutable. */
    public List<T> items() {
        return items;
    }

    public Class<T> itemType() {
        return itemType;
    }

    @Override
    public String toString() {
        return id;
    }

    public static Page<?> byId(String id) {
        for (Page<?> p : ALL) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new UsageException("unknown page '" + id + "'; valid pages: " + ids() + ".");
    }

    public static String ids() {
        return Arrays.stream(ALL).map(Page::id).collect(Collectors.joining(", "));
    }

    private static <T> List<T> load(String resource, Class<T> model) {
        ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
        try (InputStream in = Page.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return List.copyOf(json.readValue(in, json.getTypeFactory().constructCollectionType(List.class, model)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
