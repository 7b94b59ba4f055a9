package site;

import model.DataSource;
import model.Page;

import javax.management.JMException;
import javax.management.ObjectName;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * What a running server can tell {@code bench} about itself over JMX ({@value #NAME}): pages in flight, live
 * virtual threads, heap after GC and GC totals in one reading, and how long the data source alone takes to deliver
 * a page.
 */
public final class ServerStats implements ServerStatsMXBean {

    public static final String NAME = "pssrbench:type=Server";

    private static final Logger LOG = Logger.getLogger("pssrbench");

    private final Site site;
    private final Duration delay;

    private ServerStats(Site site, Duration delay) {
        this.site = site;
        this.delay = delay;
    }

    /** Registers the statistics of this server with the platform MBean server. */
    public static void register(Site site) {
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(
                    new ServerStats(site, site.settings().feed().delay()),
                    new ObjectName(NAME));
        } catch (JMException e) {
            LOG.warning("server statistics are not available over JMX: " + e.getMessage());
        }
    }

    @Override
    public int getInFlightPages() {
        return site.inFlight();
    }

    @Override
    public int getDataSourceSubscriptions() {
        return DataSource.activeSubscriptions();
    }

    @Override
    public long getVirtualThreads() {
        return virtualThreads();
    }

    @Override
    public long[] getSample() {
        long[] gc = gcSample();
        return new long[] {virtualThreads(), gc[0], gc[1], gc[2]};
    }

    /**
     * This JVM's {heap used after the last GC (-1 where no pool tells), GCs so far, their milliseconds}: the part of
     * {@link #getSample} any server JVM can give (the stress tests' fault server gives it too).
     */
    public static long[] gcSample() {
        long heapAfterGc = -1;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage after = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            if (after != null) {
                heapAfterGc = Math.max(0, heapAfterGc) + after.getUsed();
            }
        }
        long gcCount = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());   // -1: this collector does not tell
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {heapAfterGc, gcCount, gcMillis};
    }

    @Override
    public double sourceMedianMillis(String page, int samples) {
        Page<?> p = Page.byId(page);
        double[] ms = new double[Math.max(1, samples)];
        for (int i = 0; i < ms.length; i++) {
            long start = System.nanoTime();
            DataSource.items(p.items(), delay, site.settings().feed().timers(), -1).blockingLast();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }

    /**
     * No public API counts virtual threads (the platform's ThreadMXBean and Thread.getAllStackTraces() see platform
     * threads only). The JDK's thread containers do, for its thread dumps: the root container and every executor
     * or scope below it. They are internal, so this needs {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}
     * ({@code bench} starts its servers with it) and answers -1 without it.
     */
    static long virtualThreads() {
        try {
            Class<?> containers = Class.forName("jdk.internal.vm.ThreadContainers");
            Class<?> container = Class.forName("jdk.internal.vm.ThreadContainer");
            return count(containers.getMethod("root").invoke(null), container.getMethod("threads"),
                    container.getMethod("children"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }

    private static long count(Object container, Method threads, Method children) throws ReflectiveOperationException {
        @SuppressWarnings("unchecked")
        long n = ((Stream<Thread>) threads.invoke(container)).filter(Thread::isVirtual).count();
        for (Object child : (List<?>) ((Stream<?>) children.invoke(container)).toList()) {
            n += count(child, threads, children);
        }
        return n;
    }
}
