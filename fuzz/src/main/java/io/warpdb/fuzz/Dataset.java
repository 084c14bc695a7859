package io.warpdb.fuzz;

import java.util.ArrayList;
import java.util.List;

/** The tables of one fuzz case, loaded identically into every engine. */
public record Dataset(List<Table> tables) {
    /** The statements that create and fill the tables. */
    public List<String> statements() {
        List<String> out = new ArrayList<>();
        for (Table t : tables) {
            out.add(t.createStatement());
            out.addAll(t.insertStatements());
        }
        return out;
    }

    public Table table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table " + name));
    }

    public Dataset withTable(int index, Table table) {
        List<Table> out = new ArrayList<>(tables);
        out.set(index, table);
        return new Dataset(out);
    }

    public Dataset withoutTable(int index) {
        List<Table> out = new ArrayList<>(tables);
        out.remove(index);
        return new Dataset(out);
    }
}
