package model;

/**
 * One way a server can run its request handlers, as data: the thread a handler runs on, whether it answers later
 * (returns before its page ends: an event loop, servlet async, a virtual thread that suspends rather than blocks),
 * and what the README calls that thread. A server lists the ways it has ({@link site.Server#handling()}); the plan of a
 * combination ({@link Serving}) picks one for the mode's needs, and the server runs the one it is given.
 */
public record Handler(Kind kind, boolean answersLater, String words) {

    /** The kind of thread a handler runs on. */
    public enum Kind { VIRTUAL, PLATFORM, EVENT_LOOP }
}
