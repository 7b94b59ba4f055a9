package model;

/** One item of the Presentations page, as in presentations.json. {@code summary} is trusted markup. */
public record Presentation(int id, String title, String speakerName, String summary) {
}
