package servers;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.TcpConfig;
import io.vertx.core.transport.Transport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * Vert.x's own NIO transport (what Vert.x uses by default), passed to {@code Vertx.builder().withTransport}, that
 * keeps the listening channels it creates so that {@link #close} can close them alone. Vert.x 5.2.3 has no call for
 * that: {@code HttpServer.close()} and {@code shutdown(timeout)} end the server's open connections too (the first
 * at once, the second after their current response; a request arriving meanwhile is dropped unanswered).
 *
 * <p>It also avoids a race in Vert.x's own unbind, which removes the server's connection handler from the shared
 * listener first and closes the listening channel after, on the acceptor's thread
 * ({@code NetServerImpl.handleShutdown}: {@code channelBalancer.removeWorker}, then the shared {@code TcpServer}'s
 * close). A connection the acceptor reads in between finds no handler: {@code VertxEventLoopGroup.next()} throws an
 * IllegalStateException, and Netty's {@code ServerBootstrapAcceptor} closes the connection and logs "Failed to
 * register an accepted channel" at WARNING, once per connection (1 and 16 in two stops under load here; known
 * upstream as eclipse-vertx/vert.x#6087). With the channel closed first, there is no such connection.
 */
final class VertxListeners implements Transport {

    private final io.vertx.core.spi.transport.Transport nio = Transport.NIO.implementation();
    /** Every listening channel created (bound or not): a few per server, so none is ever removed. */
    private final Set<Channel> listening = ConcurrentHashMap.newKeySet();
    private final Spi spi = new Spi();

    /** Closes the listening sockets, and returns once they are closed; the connections go on. Idempotent. */
    void close() {
        for (Channel channel : listening) {
            channel.close().awaitUninterruptibly(5000);
        }
    }

    @Override
    public String name() {
        return Transport.NIO.name();
    }

    @Override
    public boolean available() {
        return true;   // the JDK's NIO is always there
    }

    @Override
    public Throwable unavailabilityCause() {
        return null;
    }

    @Override
    public io.vertx.core.spi.transport.Transport implementation() {
        return spi;
    }

    /** NIO in all but {@link #serverChannelFactory}, which records each channel. */
    private final class Spi implements io.vertx.core.spi.transport.Transport {

        @Override
        public ChannelFactory<? extends ServerChannel> serverChannelFactory(boolean domainSocket) {
            ChannelFactory<? extends ServerChannel> channels = nio.serverChannelFactory(domainSocket);
            return () -> {
                ServerChannel channel = channels.newChannel();
                listening.add(channel);
                return channel;
            };
        }

        @Override
        public boolean supportsDomainSockets() {
            return nio.supportsDomainSockets();
        }

        @Override
        public boolean supportFileRegion() {
            return nio.supportFileRegion();
        }

        @Override
        public boolean isAvailable() {
            return nio.isAvailable();
        }

        @Override
        public Throwable unavailabilityCause() {
            return nio.unavailabilityCause();
        }

        @Override
        public java.net.SocketAddress convert(SocketAddress address) {
            return nio.convert(address);
        }

        @Override
        public SocketAddress convert(java.net.SocketAddress address) {
            return nio.convert(address);
        }

        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return nio.ioHandlerFactory();
        }

        @Override
        public EventLoopGroup eventLoopGroup(int type, int threads, ThreadFactory factory, int ioRatio) {
            return nio.eventLoopGroup(type, threads, factory, ioRatio);
        }

        @Override
        @SuppressWarnings("deprecation")   // the SPI's own signature
        public DatagramChannel datagramChannel(io.netty.channel.socket.InternetProtocolFamily family) {
            return nio.datagramChannel(family);
        }

        @Override
        public ChannelFactory<? extends DatagramChannel> datagramChannelFactory() {
            return nio.datagramChannelFactory();
        }

        @Override
        public ChannelFactory<? extends Channel> channelFactory(boolean domainSocket) {
            return nio.channelFactory(domainSocket);
        }

        @Override
        public void configure(DatagramChannel channel, DatagramSocketOptions options) {
            nio.configure(channel, options);
        }

        @Override
        public void configure(TcpConfig config, boolean domainSocket, Bootstrap bootstrap) {
            nio.configure(config, domainSocket, bootstrap);
        }

        @Override
        public void configure(TcpConfig config, boolean domainSocket, ServerBootstrap bootstrap) {
            nio.configure(config, domainSocket, bootstrap);
        }
    }
}
