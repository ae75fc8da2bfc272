package clients_test

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	_ "github.com/lib/pq"
	gormpg "gorm.io/driver/postgres"
	"gorm.io/gorm"
	gormlogger "gorm.io/gorm/logger"
)

// TestPgx: named statements (pgx's statement cache), binary results,
// parameters without declared types, transactions, a db/branch dbname.
func TestPgx(t *testing.T) {
	prepare(t, "c_pgx")
	ctx := context.Background()
	c, err := pgx.Connect(ctx, connString("c_pgx/dev"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var out strings.Builder
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = c.Exec(ctx, "CREATE TABLE accounts (id bigint PRIMARY KEY, owner text NOT NULL, balance numeric(12, 2), opened timestamptz, tags text[])")
	must(err)
	tx, err := c.Begin(ctx)
	must(err)
	opened := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for i := int64(1); i <= 3; i++ {
		_, err := tx.Exec(ctx, "INSERT INTO accounts VALUES ($1, $2, $3, $4, $5)", i, fmt.Sprintf("owner %d", i), fmt.Sprintf("%d.50", i*100), opened, []string{"a", fmt.Sprint(i)})
		must(err)
	}
	must(tx.Commit(ctx))
	tx, err = c.Begin(ctx)
	must(err)
	_, err = tx.Exec(ctx, "INSERT INTO accounts (id, owner) VALUES ($1, $2)", 9, "undone")
	must(err)
	must(tx.Rollback(ctx))
	rows, err := c.Query(ctx, "SELECT id, owner, balance, opened, tags FROM accounts WHERE id >= $1 ORDER BY id", 1)
	must(err)
	for rows.Next() {
		var id int64
		var owner string
		var balance pgtype.Numeric
		var at time.Time
		var tags []string
		must(rows.Scan(&id, &owner, &balance, &at, &tags))
		f, _ := balance.Float64Value()
		fmt.Fprintf(&out, "row: %d %q %.2f %s %v\n", id, owner, f.Float64, at.UTC().Format(time.RFC3339), tags)
	}
	must(rows.Err())
	for _, fd := range rows.FieldDescriptions() {
		fmt.Fprintf(&out, "field: %s oid=%d format=%d\n", fd.Name, fd.DataTypeOID, fd.Format)
	}
	var n int
	must(c.QueryRow(ctx, "SELECT count(*) FROM accounts").Scan(&n))
	fmt.Fprintf(&out, "count: %d\n", n)
	var snap int64
	must(c.QueryRow(ctx, "SELECT snapshot_id FROM vsql_create_snapshot()").Scan(&snap))
	fmt.Fprintf(&out, "snapshot: %d\n", snap)
	check(t, "pgx", out.String())
}

// TestLibPq: database/sql with lib/pq (text formats, unnamed statements).
func TestLibPq(t *testing.T) {
	prepare(t, "c_libpq")
	db, err := sql.Open("postgres", connString("c_libpq/dev"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	_, err = db.Exec("CREATE TABLE orders (id integer PRIMARY KEY, customer varchar(40) NOT NULL, total double precision, placed date, paid boolean)")
	must(err)
	tx, err := db.Begin()
	must(err)
	stmt, err := tx.Prepare("INSERT INTO orders VALUES ($1, $2, $3, $4, $5)")
	must(err)
	_, err = stmt.Exec(1, "Ada", 12.5, "2026-07-08", true)
	must(err)
	_, err = stmt.Exec(2, "Lin", nil, nil, false)
	must(err)
	must(tx.Commit())
	rows, err := db.Query("SELECT id, customer, total, placed, paid FROM orders ORDER BY id")
	must(err)
	defer rows.Close()
	for rows.Next() {
		var id int
		var customer string
		var total sql.NullFloat64
		var placed sql.NullTime
		var paid bool
		must(rows.Scan(&id, &customer, &total, &placed, &paid))
		fmt.Fprintf(&out, "row: %d %s %v %v %s %v\n", id, customer, total.Valid, total.Float64, placed.Time.Format("2006-01-02"), paid)
	}
	must(rows.Err())
	_, err = db.Exec("INSERT INTO orders (id, customer) VALUES (1, 'dup')")
	fmt.Fprintf(&out, "error: %v\n", err != nil && strings.Contains(err.Error(), "23505"))
	check(t, "libpq", out.String())
}

// gormProduct is GORM's model for TestGorm.
type gormProduct struct {
	ID    uint   `gorm:"primaryKey"`
	Code  string `gorm:"uniqueIndex;not null"`
	Price float64
	Stock *int
}

// TestGorm: AutoMigrate (twice: the second finds the table as it is), CRUD.
func TestGorm(t *testing.T) {
	prepare(t, "c_gorm")
	db, err := gorm.Open(gormpg.Open(connString("c_gorm/dev")), &gorm.Config{Logger: gormlogger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i := 0; i < 2; i++ {
		if err := db.AutoMigrate(&gormProduct{}); err != nil {
			t.Fatalf("AutoMigrate %d: %v", i+1, err)
		}
	}
	m := db.Migrator()
	fmt.Fprintf(&out, "has table: %v, has column price: %v\n", m.HasTable(&gormProduct{}), m.HasColumn(&gormProduct{}, "Price"))
	types, err := m.ColumnTypes(&gormProduct{})
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, ct := range types {
		nullable, _ := ct.Nullable()
		pk, _ := ct.PrimaryKey()
		cols = append(cols, fmt.Sprintf("column: %s %s nullable=%v pk=%v\n", ct.Name(), ct.DatabaseTypeName(), nullable, pk))
	}
	sort.Strings(cols)
	out.WriteString(strings.Join(cols, ""))
	five := 5
	if err := db.Create(&[]gormProduct{{Code: "A1", Price: 9.5, Stock: &five}, {Code: "B2", Price: 1.25}}).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Model(&gormProduct{}).Where("code = ?", "B2").Update("price", 2.5).Error; err != nil {
		t.Fatal(err)
	}
	err = db.Create(&gormProduct{Code: "A1"}).Error
	fmt.Fprintf(&out, "duplicate code refused: %v\n", err != nil)
	var products []gormProduct
	if err := db.Order("id").Find(&products).Error; err != nil {
		t.Fatal(err)
	}
	for _, p := range products {
		stock := "nil"
		if p.Stock != nil {
			stock = fmt.Sprint(*p.Stock)
		}
		fmt.Fprintf(&out, "product: %d %s %.2f %s\n", p.ID, p.Code, p.Price, stock)
	}
	check(t, "gorm", out.String())
}
