package harness;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import site.ServerStats;
import site.ServerStatsMXBean;
import jdk.management.jfr.FlightRecorderMXBean;

import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The server JVM's view of itself over JMX: {@link ServerStats} (virtual threads, heap after GC, GC totals, the
 * data source's floor) and JFR recordings. The connection needs no port or flag on the server: the attach API
 * starts the JVM's local management agent on demand, as jcmd and JConsole do. Calls fail with unchecked exceptions
 * (JMX proxies), which callers turn into empty columns.
 */
public final class ServerJmx implements AutoCloseable {

    /** One reading; see {@link ServerStatsMXBean#getSample()}. */
    public record Sample(long virtualThreads, long heapAfterGcBytes, long gcCount, long gcMillis) {
    }

    private final JMXConnector connector;
    private final ServerStatsMXBean stats;
    private final FlightRecorderMXBean flightRecorder;
    private long recording = -1;
    /** The recordings' settings (the "default" ones with the virtual threads' events), read from the server once. */
    private Map<String, String> recordingSettings;

    private ServerJmx(JMXConnector connector) throws IOException {
        this.connector = connector;
        MBeanServerConnection c = connector.getMBeanServerConnection();
        this.stats = JMX.newMXBeanProxy(c, name(ServerStats.NAME), ServerStatsMXBean.class);
        this.flightRecorder = JMX.newMXBeanProxy(c, name("jdk.management.jfr:type=FlightRecorder"),
                FlightRecorderMXBean.class);
    }

    static ServerJmx attach(long pid) throws IOException {
        try {
            VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            return new ServerJmx(JMXConnectorFactory.connect(new JMXServiceURL(address)));
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to the server JVM " + pid + ": " + e.getMessage(), e);
        }
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public Sample sample() {
        long[] s = stats.getSample();
        return new Sample(s[0], s[1], s[2], s[3]);
    }

    /** Pages whose render has not ended. */
    public int inFlightPages() {
        return stats.getInFlightPages();
    }

    /** Live virtual threads (-1 when the server JVM cannot count them). */
    public long virtualThreads() {
        return stats.getVirtualThreads();
    }

    /** The data source's open subscriptions. */
    public int dataSourceSubscriptions() {
        return stats.getDataSourceSubscriptions();
    }

    public double sourceMedianMillis(String page, int samples) {
        return stats.sourceMedianMillis(page, samples);
    }

    /**
     * Starts a JFR recording with the JDK's "default" settings (low overhead, meant for production) and the virtual
     * threads' start and end, which those leave off: the report's timeline counts them ({@code importers.JfrTimeline}).
     * They cost an event of a few dozen bytes as each virtual thread starts and ends, written to a thread-local
     * buffer. The settings are read from the server once, so a later window makes as many RMI calls as before.
     */
    public void startRecording() {
        recording = flightRecorder.newRecording();
        if (recordingSettings == null) {
            flightRecorder.setPredefinedConfiguration(recording, "default");
            Map<String, String> settings = new HashMap<>(flightRecorder.getRecordingSettings(recording));
            settings.put("jdk.VirtualThreadStart#enabled", "true");
            settings.put("jdk.VirtualThreadEnd#enabled", "true");
            recordingSettings = Map.copyOf(settings);
        }
        flightRecorder.setRecordingSettings(recording, recordingSettings);
        flightRecorder.startRecording(recording);
    }

    /** Stops the recording and writes it to {@code file} (the path is the server's: both run on this machine). */
    public void stopRecording(Path file) throws IOException {
        if (recording < 0) {
            return;
        }
        try {
            flightRecorder.stopRecording(recording);
            flightRecorder.copyTo(recording, file.toAbsolutePath().toString());
        } finally {
            flightRecorder.closeRecording(recording);
            recording = -1;
        }
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
