package report;

import org.junit.jupiter.api.Test;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.geom.Area;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the bench charts' series look: one colour per combination even past the palette, a line per mode. */
class SeriesLookTest {

    @Test
    void everyCombinationAColourOfItsOwnPastThePaletteTooAndTheSameEachTime() {
        SeriesLook look = new SeriesLook(List.of("virtual", "reactive"));
        Set<Color> seen = new HashSet<>();
        for (int i = 0; i < 60; i++) {
            Color c = look.colour("engine" + i + "/virtual", false);
            assertTrue(seen.add(c), "combination " + i + " has a colour of its own: " + c);
            assertFalse(c.getRed() == c.getGreen() && c.getGreen() == c.getBlue(), "no grey but a baseline's");
            assertFalse(c.equals(Whiskers.RING), "not the disturbed rings' red");
        }
        assertEquals(look.colour("engine3/virtual", false), look.colour("engine3/virtual", false), "the same each time");
        Set<Color> greys = new HashSet<>();
        for (int i = 0; i < 24; i++) {
            Color c = look.colour("raw/mode" + i, true);
            assertTrue(greys.add(c) && !seen.contains(c), "baseline " + i + " a grey of its own: " + c);
            assertTrue(c.getRed() == c.getGreen() && c.getGreen() == c.getBlue(), "grey: " + c);
        }
        assertEquals(84, look.colours().size());
    }

    @Test
    void eachModeALineAndAMarkerOfItsOwnAnotherToolAThinnerLine() {
        SeriesLook look = new SeriesLook(List.of("virtual", "reactive", "fragments", "buffered", "blocking"));
        Set<String> dashes = new HashSet<>();
        for (String mode : List.of("virtual", "reactive", "fragments", "buffered", "blocking")) {
            BasicStroke stroke = (BasicStroke) look.stroke(mode, false);
            assertTrue(dashes.add(java.util.Arrays.toString(stroke.getDashArray())), mode);
        }
        assertNotEquals(new Area(look.shape("virtual")), new Area(look.shape("reactive")), "a marker per mode");
        assertTrue(((BasicStroke) look.stroke("virtual", true)).getLineWidth()
                < ((BasicStroke) look.stroke("virtual", false)).getLineWidth());
    }
}
