package core;

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
        for (Approach a : Approach.values()) {
            ids.add(a.id());
        }
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
            assertFalse(s.approaches().isEmpty(), s.id());
            assertFalse(s.description().isBlank(), s.id());
            for (Approach a : s.approaches()) {
                assertFalse(s.approachMeaning(a).isBlank(), s.id() + " " + a);
            }
        }
        for (Engine e : Registry.ENGINES) {
            assertFalse(e.approaches().isEmpty(), e.id());
            assertFalse(e.description().isBlank(), e.id());
        }
    }

    @Test
    void combinationsAreExactlyTheIntersectionOfCapabilities() {
        Set<String> listed = new HashSet<>();
        Registry.combinations().forEach(c -> listed.add(c.toString()));
        for (Server s : Registry.SERVERS) {
            for (Engine e : Registry.ENGINES) {
                for (Approach a : Approach.values()) {
                    boolean valid = s.approaches().contains(a) && e.approaches().contains(a);
                    assertEquals(valid, listed.contains(s.id() + " " + e.id() + " " + a.id()), s.id() + e.id() + a);
                    if (!valid) {
                        UsageException refused = assertThrows(UsageException.class, () -> Registry.validate(s, e, a));
                        assertEquals("mode " + a.id() + " is not available with server " + s.id() + " and engine "
                                + e.id() + "; valid modes for them: " + Approach.ids(Registry.approaches(s, e))
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
        assertFalse(Registry.approaches(s, e).isEmpty());
    }

    @Test
    void unknownIdsAreRefusedNamingTheValidOnes() {
        assertEquals("unknown server 'tomcat'; valid servers: " + Registry.serverIds() + ".",
                assertThrows(UsageException.class, () -> Registry.server("tomcat")).getMessage());
        assertEquals("unknown engine 'jsp'; valid engines: " + Registry.engineIds() + ".",
                assertThrows(UsageException.class, () -> Registry.engine("jsp")).getMessage());
        assertEquals("unknown mode 'async'; valid modes: virtual, blocking, reactive.",
                assertThrows(UsageException.class, () -> Approach.byId("async")).getMessage());
    }
}
