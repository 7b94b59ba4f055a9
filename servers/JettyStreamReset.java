package servers;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.eclipse.jetty.ee10.servlet.ServletChannel;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpVersion;

import java.io.IOException;
import java.util.EnumSet;

/**
 * Over HTTP/2, a page that fails midway resets its own stream (RST_STREAM) instead of closing the connection, whose
 * other streams carry other pages; over HTTP/1.x the page still closes its connection (JavalinServer's abort).
 *
 * <p>How, with Jetty's own path: a servlet that throws after its response is committed makes
 * {@code ServletChannel.handleException} ask {@code ServletChannelState.onError}, which answers "abort" for a
 * committed response, and {@link ServletChannel#abort} marks the exchange (request COMPLETED, output ABORTED); when
 * the dispatch returns, the channel ends it by failing the handler's callback ({@code ServletChannel.onCompleted}),
 * the core fails the stream ({@code HttpChannelState.HandlerInvoker.completeStream}), and
 * {@code HttpStreamOverHTTP2.failed} resets that stream alone (CANCEL); over HTTP/1.1 {@code HttpStreamOverHTTP1}
 * would close the connection. An exception never reaches Jetty from Javalin, whose exception mapper catches it (and
 * would write a 500 body into the committed page), so the page calls the same abort, at the same point: once
 * Javalin's servlet has returned, through this filter around it. Calling it while Javalin is still in its servlet
 * trips Javalin: {@code ServletChannelState.isAsyncStarted()} is true for a handling request whose state is
 * COMPLETED, Javalin then asks for the AsyncContext of a request that never started one, and logs the
 * IllegalStateException ("s=HANDLING rs=COMPLETED os=ABORTED") at SEVERE (measured in an earlier attempt).
 *
 * <p>A page that fails after its servlet returned (servlet async: the handler answered later) aborts at once, with
 * the channel waiting for it. Unless the stream failed first (the client reset it, the connection went): then Jetty
 * ends the exchange itself ({@code ServletChannelState.asyncError}) and may hand the channel to another request, so
 * an abort then could cut someone else's page. This filter's failure listener is added before Javalin starts async
 * (when Jetty adds its own), so Jetty runs it first; it and the abort share a lock, so an abort either happens
 * while the channel is still this page's, or not at all.
 */
final class JettyStreamReset implements Filter {

    private static final String ATTRIBUTE = JettyStreamReset.class.getName();

    /** On every request of the context; the filter leaves HTTP/1.x requests alone. */
    static void install(ServletContextHandler context) {
        context.addFilter(new JettyStreamReset(), "/*", EnumSet.of(DispatcherType.REQUEST));
    }

    /** The reset of {@code request}'s stream; null over HTTP/1.x, whose page closes its connection instead. */
    static Reset of(ServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof Reset reset ? reset : null;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        ServletContextRequest exchange = ServletContextRequest.getServletContextRequest(request);
        if (exchange == null || exchange.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_2) {
            chain.doFilter(request, response);
            return;
        }
        Reset reset = new Reset(exchange.getServletChannel());
        exchange.addFailureListener(reset::streamFailed);
        request.setAttribute(ATTRIBUTE, reset);
        try {
            chain.doFilter(request, response);
        } finally {
            reset.servletReturned();
        }
    }

    /** One HTTP/2 exchange's abort, from the filter's start until Jetty ends it. */
    static final class Reset {
        private final ServletChannel channel;
        private boolean inServlet = true;
        private boolean streamFailed;
        private Throwable failure;

        private Reset(ServletChannel channel) {
            this.channel = channel;
        }

        /**
         * The page failed: its stream is reset once Javalin's servlet has returned (at once if it has), unless the
         * stream already failed and Jetty ends the exchange itself. Either way the exchange is then Jetty's to end:
         * the caller must not hand it back to Javalin.
         */
        synchronized void abort(Throwable pageFailure) {
            if (failure != null || streamFailed) {
                return;
            }
            failure = pageFailure;
            if (!inServlet) {
                channel.abort(failure);   // under the lock: see the class comment
            }
        }

        private synchronized void servletReturned() {
            inServlet = false;
            if (failure != null && !streamFailed) {
                channel.abort(failure);
            }
        }

        private synchronized void streamFailed(Throwable cause) {
            streamFailed = true;
        }
    }
}
