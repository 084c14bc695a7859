package io.warpdb.fuzz.ast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Helpers for building children lists with optional (null) entries. */
final class Nodes {
    private Nodes() {
    }

    /** The non-null nodes, in order. */
    static List<Node> present(Node... nodes) {
        return Arrays.stream(nodes).filter(Objects::nonNull).toList();
    }

    /** All of {@code first} followed by the non-null {@code rest}. */
    static List<Node> concat(List<? extends Node> first, Node... rest) {
        List<Node> out = new ArrayList<>(first);
        out.addAll(present(rest));
        return out;
    }

    /** Reads children back in the order they were listed. */
    static final class Reader {
        private final List<Node> children;
        private int next;

        Reader(List<Node> children) {
            this.children = children;
        }

        @SuppressWarnings("unchecked")
        <T extends Node> T next() {
            return (T) children.get(next++);
        }

        /** The next child if {@code wasPresent}, else null. */
        <T extends Node> T nextIf(boolean wasPresent) {
            return wasPresent ? next() : null;
        }

        <T extends Node> List<T> next(int count) {
            List<T> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(next());
            }
            return out;
        }
    }
}
