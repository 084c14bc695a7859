package io.warpdb.sqltest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** The {@code .test} files under the test resources' {@code sql/} folder. */
public final class Corpus {
    /** Files under this folder document known engine bugs; they are skipped unless sqltest.pending=true. */
    public static final String PENDING_DIR = "sql/pending/";

    /** One file: its name (path under the resources root, e.g. sql/basic/ddl.test) and location. */
    public record TestFile(String name, Path path) {
        public boolean pending() {
            return name.startsWith(PENDING_DIR);
        }

        public String text() {
            try {
                return Files.readString(path, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public SltScript parse() {
            return SltParser.parse(name, text());
        }

        /** The comment lines at the head of the file (a pending file's reason), joined. */
        public String headerComment() {
            List<String> out = new ArrayList<>();
            for (String l : text().split("\n")) {
                String t = l.strip();
                if (!t.startsWith("#")) {
                    if (t.isEmpty() && out.isEmpty()) {
                        continue;
                    }
                    break;
                }
                out.add(t.replaceFirst("^#+\\s?", ""));
            }
            return String.join(" ", out).strip();
        }
    }

    private Corpus() {
    }

    /** All files, sorted by name, whose name contains one of the comma-separated filters (all if blank). */
    public static List<TestFile> files(String filter) {
        URL root = Corpus.class.getResource("/sql");
        if (root == null) {
            throw new IllegalStateException("no sql/ folder among the test resources");
        }
        Path dir;
        try {
            dir = Paths.get(root.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Path base = dir.getParent();
        List<String> filters = filter == null || filter.isBlank() ? List.of()
                : Arrays.stream(filter.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".test") && Files.isRegularFile(p))
                    .map(p -> new TestFile(base.relativize(p).toString().replace('\\', '/'), p))
                    .filter(f -> filters.isEmpty() || filters.stream().anyMatch(x -> f.name().contains(x)))
                    .sorted((a, b) -> a.name().compareTo(b.name()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
