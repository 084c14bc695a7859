package io.warpdb.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Date;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;

/**
 * Result sets whose {@code getObject(column, type)} works as JDBC 4.2 asks: Avatica's accessors
 * return a value only when it already is of that exact class and otherwise fail with "cannot
 * convert to Object (with type)", so {@code getObject(i, LocalDate.class)} on a DATE or
 * {@code getObject(i, Long.class)} on an INTEGER failed. Here the type picks the getter. And a
 * data error raised while a later frame of rows is fetched comes out of {@code next()} as an
 * SQLException with its SQLSTATE, not as Avatica's unchecked exception.
 */
final class TypedResults {
    private TypedResults() {
    }

    /** {@code results} of {@code statement} (the proxy the caller holds, which getStatement returns). */
    static ResultSet wrap(ResultSet results, Statement statement) {
        return (ResultSet) Proxy.newProxyInstance(TypedResults.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                new Handler(results, statement));
    }

    private record Handler(ResultSet target, Statement statement) implements InvocationHandler {
        private Object typed(int column, Class<?> type) throws SQLException {
            if (type == LocalDate.class) {
                Date date = target.getDate(column);
                return date == null ? null : date.toLocalDate();
            }
            if (type == LocalDateTime.class) {
                Timestamp timestamp = target.getTimestamp(column);
                return timestamp == null ? null : timestamp.toLocalDateTime();
            }
            if (type == Integer.class) {
                return target.getInt(column);
            }
            if (type == Long.class) {
                return target.getLong(column);
            }
            if (type == Double.class) {
                return target.getDouble(column);
            }
            if (type == Boolean.class) {
                return target.getBoolean(column);
            }
            if (type == BigDecimal.class) {
                return target.getBigDecimal(column);
            }
            if (type == String.class) {
                return target.getString(column);
            }
            if (type == Date.class) {
                return target.getDate(column);
            }
            return target.getObject(column, type);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().equals("getStatement")) {
                return statement;
            }
            if (method.getName().equals("getObject") && args.length == 2 && args[1] instanceof Class<?> type) {
                int column = args[0] instanceof Integer i ? i : target.findColumn((String) args[0]);
                Object value = typed(column, type);
                return target.wasNull() ? null : value;
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                // An error while a later frame is fetched reaches next() as Avatica's unchecked
                // exception; JDBC callers catch SQLException, with the SQLSTATE.
                if (e.getCause() instanceof AvaticaClientRuntimeException failure) {
                    throw new SQLException(failure.getMessage(), failure.getSqlState(), failure.getErrorCode(), failure);
                }
                throw e.getCause();
            }
        }
    }
}
