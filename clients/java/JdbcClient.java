// pgjdbc: DatabaseMetaData (what DBeaver and Metabase call) and a prepared query.
import java.sql.*;

public class JdbcClient {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://" + System.getenv("PGHOST") + ":" + System.getenv("PGPORT") + "/" + System.getenv("VSQL_DB") + "%2Fdev";
        try (Connection c = DriverManager.getConnection(url, System.getenv("PGUSER"), "")) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE shipments (id integer PRIMARY KEY, dest varchar NOT NULL, weight numeric(7, 2), sent timestamp)");
                st.execute("CREATE INDEX shipments_dest ON shipments (dest)");
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO shipments VALUES (?, ?, ?, ?)")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "city " + i);
                    ps.setBigDecimal(3, new java.math.BigDecimal(i + ".25"));
                    ps.setTimestamp(4, Timestamp.valueOf("2026-0" + i + "-01 10:00:00"));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("SELECT id, dest, weight, sent FROM shipments WHERE weight > ? ORDER BY id")) {
                ps.setBigDecimal(1, new java.math.BigDecimal("1.5"));
                try (ResultSet rs = ps.executeQuery()) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        System.out.println("row: " + rs.getInt(1) + " " + rs.getString(2) + " " + rs.getBigDecimal(3) + " " + rs.getTimestamp(4));
                    }
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        System.out.println("result column: " + md.getColumnName(i) + " " + md.getColumnTypeName(i));
                    }
                }
            }
            DatabaseMetaData meta = c.getMetaData();
            System.out.println("product: " + meta.getDatabaseProductName());
            try (ResultSet rs = meta.getSchemas()) {
                while (rs.next()) System.out.println("schema: " + rs.getString("TABLE_SCHEM"));
            }
            try (ResultSet rs = meta.getTables(null, "public", "%", new String[] {"TABLE"})) {
                while (rs.next()) System.out.println("table: " + rs.getString("TABLE_NAME") + " " + rs.getString("TABLE_TYPE"));
            }
            try (ResultSet rs = meta.getColumns(null, "public", "shipments", "%")) {
                while (rs.next()) System.out.println("column: " + rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " " + rs.getInt("DATA_TYPE") + " nullable=" + rs.getString("IS_NULLABLE"));
            }
            try (ResultSet rs = meta.getPrimaryKeys(null, "public", "shipments")) {
                while (rs.next()) System.out.println("pk: " + rs.getString("COLUMN_NAME") + " " + rs.getString("PK_NAME"));
            }
            try (ResultSet rs = meta.getIndexInfo(null, "public", "shipments", false, false)) {
                while (rs.next()) System.out.println("index: " + rs.getString("INDEX_NAME") + " " + rs.getString("COLUMN_NAME") + " unique=" + !rs.getBoolean("NON_UNIQUE"));
            }
        }
    }
}
