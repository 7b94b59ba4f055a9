package cli;

import base.Durations;
import base.Failure;
import base.UsageException;
import base.Version;
import http.PortInUseException;
import model.DataSource;
import model.Page;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.ResourceBundle;

/**
 * The command line: {@code serve} (the default), {@code list}, {@code verify}, {@code bench}, {@code browser},
 * {@code stress}, {@code wrk-row}, {@code last-row}, {@code provenance}, {@code report}, {@code compare} and
 * {@code study}. Exit codes: 0 success, 1 a failure at run time (port in use, verification failed, a compare gate failed), 2 a usage
 * error. Errors are one sentence, no stack trace. This file is the top command (parsing, converters, how errors are
 * told, the default command, help); each subcommand is a file of its own in this folder, the options they share a
 * mixin ({@link Selection}).
 */
@Command(name = "pssrbench", mixinStandardHelpOptions = true, versionProvider = Cli.VersionProvider.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Progressive server-side rendering benchmark: one server, engine and mode per run, streaming"
                + " the Presentations (${bundle:registry.presentations} items) and Stocks"
                + " (${bundle:registry.stocks} items) pages.",
                "",
                "Servers: ${bundle:registry.servers}",
                "Engines: ${bundle:registry.engines}",
                "Modes:   ${bundle:registry.modes}",
                ""},
        footer = {"", "Without a command, serve (its flags: pssrbench help serve). Example:",
                "  jbang PssrBench.java --server=nima --engine=jstachio --mode=virtual"},
        subcommands = {ServeCommand.class, ListCommand.class, VerifyCommand.class, BenchCommand.class,
                BrowserCommand.class, StressCommand.class, WrkRowCommand.class, HyperfoilImportCommand.class, LastRowCommand.class,
                ProvenanceCommand.class,
                ReportCommand.class, CompareCommand.class, StudyCommand.class, CommandLine.HelpCommand.class})
public final class Cli {

    /** The types of PssrBench's flags that picocli does not know, refused in one sentence naming what is valid. */
    public static void converters(CommandLine cli) {
        cli.registerConverter(Duration.class, text -> {
            try {
                return Durations.parse(text);
            } catch (UsageException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        });
        cli.registerConverter(DataSource.Timers.class, text -> {
            try {
                return DataSource.Timers.byId(text);
            } catch (UsageException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        });
    }

    /**
     * The command line with its subcommands, converters and help text, not yet run: {@link #run}'s, and a test's
     * that parses arguments as a command would.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Cli());
        cli.setResourceBundle(registryText());
        converters(cli);
        return cli;
    }

    /** Runs the command line and returns the exit code; output goes to the given writers. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(out, err, () -> { }, args);
    }

    /** The same, running {@code beforeCommand} once the command line is parsed, just before the command runs. */
    private static int run(PrintWriter out, PrintWriter err, Runnable beforeCommand, String... args) {
        CommandLine cli = commandLine();
        cli.setOut(out).setErr(err);
        cli.setExecutionStrategy(parsed -> {
            beforeCommand.run();
            return new CommandLine.RunLast().execute(parsed);
        });
        cli.setParameterExceptionHandler((ex, a) -> {
            String message = ex.getMessage();
            // The help of the command that refused, where its flags are (serve's when none was named).
            CommandLine refusing = ex.getCommandLine();
            String help = refusing == cli ? "pssrbench --help" : "pssrbench help " + refusing.getCommandName();
            refusing.getErr().println("pssrbench: " + message + (message.endsWith(".") ? "" : ".") + " See '"
                    + help + "'.");
            return 2;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parsed) -> {
            commandLine.getErr().println("pssrbench: " + ex.getMessage());
            if (ex instanceof UsageException) {
                return 2;
            }
            if (!(ex instanceof PortInUseException) && !(ex instanceof Failure)) {
                ex.printStackTrace(commandLine.getErr());   // a bug, not bad input: keep the evidence
            }
            return 1;
        });
        String unknown = unknownCommand(cli, args);
        if (unknown != null) {
            err.println("pssrbench: " + unknown);
            err.flush();
            return 2;
        }
        return cli.execute(withDefaultSubcommand(cli, args));
    }

    /**
     * The process's command line. Ctrl-C or SIGTERM while it is being built (the registry renders every engine's
     * reference pages first, seconds on a busy machine) says so in one sentence and exits 130, as a stopped command
     * does, instead of ending the JVM without a word; once the command runs, its own stop takes over (bench's, serve's)
     * or the JVM's.
     */
    public static int run(String... args) {
        harness.Signals.endWithParent();   // a child of another PssrBench JVM ends with it
        PrintWriter err = new PrintWriter(System.err, true);
        Runnable restoreSignals = harness.Signals.onTermination(() -> {
            err.println("pssrbench: stopped while starting, before anything was written; run the command again.");
            System.exit(130);
        });
        return run(new PrintWriter(System.out, true), err, restoreSignals, args);
    }

    /**
     * A first word (or the word after help) that is neither an option nor a command: one sentence naming the
     * commands, instead of serve's "unmatched argument" (a word that is not an option defaults to serve otherwise).
     */
    private static String unknownCommand(CommandLine cli, String[] args) {
        java.util.Set<String> commands = cli.getSubcommands().keySet();
        int at = args.length > 0 && args[0].equals("help") ? 1 : 0;
        if (args.length <= at || args[at].startsWith("-") || args[at].startsWith("@")   // @FILE: picocli's
                || commands.contains(args[at])) {
            return null;
        }
        return "unknown command '" + args[at] + "'; commands: " + String.join(", ", commands.stream()
                .map(c -> c.equals("serve") ? "serve (the default)" : c).toList()) + ".";
    }

    private static String[] withDefaultSubcommand(CommandLine cli, String[] args) {
        if (args.length > 0 && (cli.getSubcommands().containsKey(args[0])
                || List.of("-h", "--help", "-V", "--version").contains(args[0]))) {
            return args;
        }
        String[] serve = new String[args.length + 1];
        serve[0] = "serve";
        System.arraycopy(args, 0, serve, 1, args.length);
        return serve;
    }

    /**
     * Help text and defaults that derive from the registry, as picocli's own resource bundle of this command line
     * and its subcommands ({@link CommandLine#setResourceBundle}): picocli interpolates {@code ${bundle:registry.KEY}}
     * in descriptions and default values from it, with no global state. The keys name no command or option, so the
     * bundle replaces no description.
     */
    static ResourceBundle registryText() {
        Object[][] contents = {
                {"registry.servers", Registry.serverIds()},
                {"registry.engines", Registry.engineIds()},
                {"registry.modes", Registry.modeIds()},
                {"registry.server", Registry.SERVERS.get(0).id()},
                {"registry.engine", Registry.ENGINES.get(0).id()},
                {"registry.mode", Registry.modes(Registry.ENGINES.get(0)).iterator().next().id()},
                {"registry.presentations", String.valueOf(Page.PRESENTATIONS.items().size())},
                {"registry.stocks", String.valueOf(Page.STOCKS.items().size())},
                {"registry.stress.h1", stress.Scenarios.idText(http.Protocol.H1)},
                {"registry.stress.h2", stress.Scenarios.idText(http.Protocol.H2C)},
                {"registry.drivers", bench.LoadDrivers.help()}};
        return new ListResourceBundle() {
            @Override
            protected Object[][] getContents() {
                return contents;
            }
        };
    }

    /** Whether the user gave {@code option} (not its default). */
    static boolean given(CommandLine.Model.CommandSpec spec, String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"pssrbench " + Version.VERSION + " (Java " + Runtime.version() + ")"};
        }
    }
}
