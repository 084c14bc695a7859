package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module table of the README says which modules each module may import (its "May import"
 * column); this reads that table and every module's main sources and fails on an import the
 * table does not allow, so the layering DESIGN.md describes cannot drift silently. Runs from
 * the tools module, the top of the build, where the whole source tree is next door.
 */
class ModuleImportsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern TABLE_ROW = Pattern.compile("^\\| `([a-z-]+)` \\|.*\\| ([^|]+) \\|$");
    private static final Pattern MODULE_NAME = Pattern.compile("`([a-z-]+)`");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** Foreign libraries only some modules may import: the library's package and those modules. */
    private static final Map<String, Set<String>> RESTRICTED_LIBRARIES = Map.of(
            "org.apache.calcite.", Set.of("sql"),
            "org.duckdb.", Set.of("tpch", "fuzz"));

    @Test
    void everyModuleImportsOnlyWhatTheReadmeAllows() {
        Map<String, Set<String>> allowed = allowedImports();
        Map<String, String> moduleOfPackage = moduleOfEveryPackage(allowed.keySet());
        List<String> violations = new ArrayList<>();
        for (String module : allowed.keySet()) {
            Set<String> mayUse = allowed.get(module);
            forEachSource(module, (file, text) -> {
                Matcher m = IMPORT.matcher(text);
                while (m.find()) {
                    String imported = m.group(1);
                    String owner = moduleOfPackage.get(packageOf(imported));
                    boolean ownModuleOrAllowed = owner == null || owner.equals(module) || mayUse == null || mayUse.contains(owner);
                    if (!ownModuleOrAllowed || !libraryAllowed(imported, module)) {
                        violations.add(module + ": " + ROOT.relativize(file) + " imports " + imported);
                    }
                }
            });
        }
        assertEquals(List.of(), violations, "imports the README's module table does not allow");
    }

    @Test
    void theTableNamesEveryModuleOfTheBuild() throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Set<String> built = new TreeSet<>();
        Matcher m = Pattern.compile("<module>([a-z-]+)</module>").matcher(pom);
        while (m.find()) {
            built.add(m.group(1));
        }
        assertEquals(built, new TreeSet<>(allowedImports().keySet()));
    }

    @Test
    void theExecutorsAndTheStorageEngineStayApart() {
        Map<String, Set<String>> allowed = allowedImports();
        assertTrue(!allowed.get("executor-cpu").contains("executor-gpu") && !allowed.get("executor-gpu").contains("executor-cpu"));
        assertTrue(!allowed.get("storage").contains("sql"), "the storage engine knows no SQL");
    }

    private static boolean libraryAllowed(String imported, String module) {
        if (imported.startsWith("org.apache.calcite.avatica.")) {
            return true;
        }
        return RESTRICTED_LIBRARIES.entrySet().stream()
                .noneMatch(e -> imported.startsWith(e.getKey()) && !e.getValue().contains(module));
    }

    /** Module to the modules it may import; null where the table says "any". */
    private static Map<String, Set<String>> allowedImports() {
        Map<String, Set<String>> allowed = new LinkedHashMap<>();
        try (Stream<String> lines = Files.lines(ROOT.resolve("README.md"))) {
            lines.map(TABLE_ROW::matcher).filter(Matcher::matches).forEach(row -> {
                String cell = row.group(2).trim();
                Set<String> modules = null;
                if (!cell.startsWith("any")) {
                    modules = new TreeSet<>();
                    Matcher name = MODULE_NAME.matcher(cell);
                    while (name.find()) {
                        modules.add(name.group(1));
                    }
                }
                allowed.put(row.group(1), modules);
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertTrue(allowed.containsKey("core"), "the README's module table was not found");
        return allowed;
    }

    private static Map<String, String> moduleOfEveryPackage(Set<String> modules) {
        Map<String, String> owner = new HashMap<>();
        for (String module : modules) {
            forEachSource(module, (file, text) -> {
                Matcher m = PACKAGE.matcher(text);
                if (m.find()) {
                    owner.put(m.group(1), module);
                }
            });
        }
        return owner;
    }

    /** The package of an imported name: the segments before the first capitalised one. */
    private static String packageOf(String imported) {
        StringBuilder pkg = new StringBuilder();
        for (String segment : imported.split("\\.")) {
            if (Character.isUpperCase(segment.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(segment);
        }
        return pkg.toString();
    }

    private interface SourceVisitor {
        void visit(Path file, String text);
    }

    private static void forEachSource(String module, SourceVisitor visitor) {
        Path sources = ROOT.resolve(module).resolve("src/main/java");
        if (!Files.isDirectory(sources)) {
            return;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                visitor.visit(file, Files.readString(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
