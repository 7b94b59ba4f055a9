package model;

import cli.CliTest;
import site.Combination;
import site.ServeConfig;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The data source's scheduler: where the delays run is what --source-scheduler says. */
class DataSourceTest {

    @Test
    void computationEmitsOnRxJavasPerCorePoolAndIoOnItsCachedPool() {
        assertEquals(Set.of("RxComputationThreadPool"), threadsOf(DataSource.Timers.COMPUTATION));
        assertEquals(Set.of("RxCachedThreadScheduler"), threadsOf(DataSource.Timers.IO));
    }

    /**
     * The pools' thread names without their numbers. The subscribing thread is left out: RxJava's concatMap drain
     * loop may emit an item on it when a timer fires while it is still subscribing.
     */
    private static Set<String> threadsOf(DataSource.Timers timers) {
        Set<String> names = ConcurrentHashMap.newKeySet();
        String subscriber = Thread.currentThread().getName().replaceAll("-\\d+$", "");   // named as the others
        List<Stock> items = DataSource.items(Page.STOCKS.items(), Duration.ofMillis(1), timers, -1)
                .doOnNext(item -> names.add(Thread.currentThread().getName().replaceAll("-\\d+$", "")))
                .toList().blockingGet();
        assertEquals(Page.STOCKS.items(), items);
        names.remove(subscriber);
        return names;
    }

    @Test
    void theFlagIsRecordedAndABadValueIsRefusedNamingTheValidOnes() {
        CliTest.Run bad = CliTest.run("serve", "--source-scheduler=single");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("unknown source scheduler 'single'; valid: computation, io."), bad.err());
        ServeConfig config = ServeConfig.of(new Combination(cli.Registry.SERVERS.get(0), cli.Registry.ENGINES.get(0),
                cli.Registry.MODES.get(0)), Duration.ofMillis(1)).withTimers(DataSource.Timers.IO).withThreads(1)
                .withGrace(Duration.ZERO);
        assertTrue(new String(config.info().toJson(), java.nio.charset.StandardCharsets.UTF_8)
                .contains("\"source_scheduler\":\"io\""));
    }
}
