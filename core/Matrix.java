package core;

import java.util.List;

/** The README's tables, generated from the registry ({@code list --format=markdown}); a test keeps them equal. */
public final class Matrix {

    private Matrix() {
    }

    public static String markdown() {
        List<Approach> modes = List.of(Approach.values());
        StringBuilder md = new StringBuilder();
        md.append("| server | engine |");
        modes.forEach(m -> md.append(' ').append(m.id()).append(" |"));
        md.append("\n|---|---|");
        modes.forEach(m -> md.append("---|"));
        md.append('\n');
        for (Server s : Registry.SERVERS) {
            for (Engine e : Registry.ENGINES) {
                md.append("| ").append(s.id()).append(" | ").append(e.id()).append(" |");
                for (Approach m : modes) {
                    md.append(Registry.approaches(s, e).contains(m) ? " yes |" : " — |");
                }
                md.append('\n');
            }
        }
        md.append("\n| server | what it is |");
        modes.forEach(m -> md.append(' ').append(m.id()).append(" |"));
        md.append("\n|---|---|");
        modes.forEach(m -> md.append("---|"));
        md.append('\n');
        for (Server s : Registry.SERVERS) {
            md.append("| ").append(s.id()).append(" | ").append(s.description()).append(" |");
            for (Approach m : modes) {
                md.append(' ').append(s.approaches().contains(m) ? s.approachMeaning(m) : "—").append(" |");
            }
            md.append('\n');
        }
        md.append("\n| engine | what it is | reads ahead |\n|---|---|---|\n");
        for (Engine e : Registry.ENGINES) {
            md.append("| ").append(e.id()).append(" | ").append(e.description()).append(" | ")
                    .append(e.lookahead() == 0 ? "no" : e.lookahead() + " item").append(" |\n");
        }
        return md.toString();
    }
}
