package cli;

import base.UsageException;
import model.Engine;
import model.Mode;
import model.Page;
import model.Serving;
import site.Delivery;
import site.Server;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistryTest {

    @Test
    void idsAreStableLowerCaseAndUnique() {
        List<String> ids = new ArrayList<>();
        Registry.SERVERS.forEach(s -> ids.add(s.id()));
        Registry.ENGINES.forEach(e -> ids.add(e.id()));
        Registry.MODES.forEach(m -> ids.add(m.id()));
        for (Page p : Page.values()) {
            ids.add(p.id());
        }
        for (String id : ids) {
            assertTrue(id.matches("[a-z][a-z0-9-]*"), id);
        }
        assertEquals(ids.size(), new HashSet<>(ids).size(), "ids must be unique: " + ids);
    }

    @Test
    void everyPluginDeclaresWhatItSupportsAndExplainsIt() {
        for (Server s : Registry.SERVERS) {
            assertFalse(Versions.fill(s.description()).isBlank(), s.id());   // every library named is in the build
            for (Mode m : Registry.MODES) {
                assertFalse(Delivery.describe(s, m).isBlank(), s.id() + " " + m.id());
            }
        }
        for (Engine e : Registry.ENGINES) {
            assertFalse(Registry.modes(e).isEmpty(), e.id());
            assertTrue(e.templates().coversEveryPage(), e.id() + " must have a template for every page");
            assertFalse(Versions.fill(e.description()).isBlank(), e.id());
        }
    }

    /**
     * The plan of every server and mode (model.Serving) runs a handler the server offers, renders on the handler
     * only when that handler waits for its page, queues chunks only for a render on callbacks whose handler waits,
     * and sends the page whole exactly when the mode says so.
     */
    @Test
    void everyPlanUsesWhatTheServerOffersAndWhatTheModeNeeds() {
        for (Server s : Registry.SERVERS) {
            for (Mode m : Registry.MODES) {
                Serving plan = Serving.of(s.handling(), m);
                String which = s.id() + " " + m.id() + ": " + plan;
                assertTrue(s.handling().contains(plan.handler()), which);
                assertTrue(!plan.onHandler() || !plan.answersLater(), which);
                assertTrue(!plan.onHandler() || !plan.renderOn().onEmission(), which);
                assertTrue(plan.writes() != Serving.Writes.QUEUE
                        || plan.renderOn().onEmission() && !plan.answersLater(), which);
                assertEquals(m.wholePage(), plan.wholePage(), which);
                assertEquals(m.runs(), plan.renderOn(), which);
            }
        }
    }

    @Test
    void combinationsAreExactlyTheIntersectionOfCapabilities() {
        Set<String> listed = new HashSet<>();
        Registry.combinations().forEach(c -> listed.add(c.toString()));
        for (Server s : Registry.SERVERS) {
            for (Engine e : Registry.ENGINES) {
                for (Mode a : Registry.MODES) {
                    boolean valid = e.templates().offers(a.needs());   // what the mode needs, what the engine offers
                    assertEquals(valid, listed.contains(s.id() + " " + e.id() + " " + a.id()), s.id() + e.id() + a);
                    if (!valid) {
                        UsageException refused = assertThrows(UsageException.class, () -> Registry.validate(s, e, a));
                        assertEquals("mode " + a.id() + " is not available with server " + s.id() + " and engine "
                                + e.id() + "; valid modes for them: " + Registry.ids(Registry.modes(e))
                                + ".", refused.getMessage());
                    }
                }
            }
        }
        assertFalse(listed.isEmpty());
    }

    @Test
    void theDefaultCombinationIsValid() {
        Server s = Registry.SERVERS.get(0);
        Engine e = Registry.ENGINES.get(0);
        assertFalse(Registry.modes(e).isEmpty());
    }

    @Test
    void unknownIdsAreRefusedNamingTheValidOnes() {
        assertEquals("unknown server 'tomcat'; valid servers: " + Registry.serverIds() + ".",
                assertThrows(UsageException.class, () -> Registry.server("tomcat")).getMessage());
        assertEquals("unknown engine 'jsp'; valid engines: " + Registry.engineIds() + ".",
                assertThrows(UsageException.class, () -> Registry.engine("jsp")).getMessage());
        assertEquals("unknown mode 'async'; valid modes: " + Registry.modeIds() + ".",
                assertThrows(UsageException.class, () -> Registry.mode("async")).getMessage());
    }
}
