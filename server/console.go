package server

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/vsqlerr"
)

// The web console: read-only pages of databases, their history as a graph,
// diffs, merge requests and conflicts, and the running sessions, served
// beside /metrics on Config.HTTPListen. Logins are the wire's: a password
// from the users file (checked against its SCRAM verifier), or, with no
// users configured, loopback clients as admins (as on the wire). Every page
// checks the same privileges a SQL session would need.

//go:embed console/*.html
var consoleFS embed.FS

var consoleTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"ts": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") },
}).ParseFS(consoleFS, "console/*.html"))

// consolePageRows is how many rows a diff or conflict page shows.
const consolePageRows = 50

// consoleLoginTTL is how long a console login lasts.
const consoleLoginTTL = 12 * time.Hour

const consoleCookie = "vsql_console"

type consoleLogin struct {
	user    string
	role    auth.Role
	expires time.Time
}

// console holds the logins of the web console.
type console struct {
	s      *Server
	mu     sync.Mutex
	logins map[string]consoleLogin // cookie value → login
}

func (s *Server) consoleHandler(mux *http.ServeMux) {
	c := &console{s: s, logins: map[string]consoleLogin{}}
	mux.HandleFunc("GET /login", c.loginPage)
	mux.HandleFunc("POST /login", c.login)
	mux.HandleFunc("POST /logout", c.logout)
	mux.HandleFunc("GET /{$}", c.page(c.databases))
	mux.HandleFunc("GET /db/{db}", c.page(c.database))
	mux.HandleFunc("GET /db/{db}/diff", c.page(c.diff))
	mux.HandleFunc("GET /db/{db}/rows", c.page(c.rows))
	mux.HandleFunc("GET /db/{db}/requests", c.page(c.requests))
	mux.HandleFunc("GET /db/{db}/conflicts", c.page(c.conflicts))
	mux.HandleFunc("GET /activity", c.page(c.activity))
}

// who returns the request's login: its cookie's, or, with no users
// configured, an admin for a loopback client (as the wire trusts it).
func (c *console) who(r *http.Request) (consoleLogin, bool) {
	if ck, err := r.Cookie(consoleCookie); err == nil {
		c.mu.Lock()
		l, ok := c.logins[ck.Value]
		if ok && time.Now().After(l.expires) {
			delete(c.logins, ck.Value)
			ok = false
		}
		c.mu.Unlock()
		if ok {
			return l, true
		}
	}
	users, err := c.s.users.Users()
	if err == nil && len(users) == 0 && (c.s.cfg.TrustAll || c.s.cfg.IsLoopback(remoteAddr(r))) {
		return consoleLogin{user: "local", role: auth.RoleAdmin}, true
	}
	return consoleLogin{}, false
}

func remoteAddr(r *http.Request) net.Addr {
	addr, err := net.ResolveTCPAddr("tcp", r.RemoteAddr)
	if err != nil {
		return nil
	}
	return addr
}

func (c *console) loginPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, "login.html", map[string]any{"Error": r.URL.Query().Get("error")})
}

func (c *console) login(w http.ResponseWriter, r *http.Request) {
	user, password := r.FormValue("user"), r.FormValue("password")
	users, err := c.s.users.Users()
	if err != nil {
		http.Error(w, "the server cannot read its users file", http.StatusInternalServerError)
		return
	}
	u, known := users[user]
	if !known || !u.Verifier.Check(password) {
		c.s.log.Warn("console login failed", "user", user, "remote", r.RemoteAddr)
		http.Redirect(w, r, "/login?error=wrong+user+or+password", http.StatusSeeOther)
		return
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	c.mu.Lock()
	c.logins[token] = consoleLogin{user: user, role: u.Role, expires: time.Now().Add(consoleLoginTTL)}
	c.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: consoleCookie, Value: token, Path: "/", HttpOnly: true, Secure: c.s.tls != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: int(consoleLoginTTL.Seconds())})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (c *console) logout(w http.ResponseWriter, r *http.Request) {
	if ck, err := r.Cookie(consoleCookie); err == nil {
		c.mu.Lock()
		delete(c.logins, ck.Value)
		c.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: consoleCookie, Value: "", Path: "/", MaxAge: -1})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// consoleError is a page's refusal: an HTTP status and what to tell.
type consoleError struct {
	status int
	msg    string
}

func (e *consoleError) Error() string { return e.msg }

func forbidden(format string, args ...any) error {
	return &consoleError{http.StatusForbidden, fmt.Sprintf(format, args...)}
}

// page wraps a page: the login is required, and the page's data is
// rendered into its template (or its error into error.html).
func (c *console) page(fn func(ctx context.Context, l consoleLogin, r *http.Request) (string, map[string]any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l, ok := c.who(r)
		if !ok {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
		defer cancel()
		start := time.Now()
		name, data, err := fn(ctx, l, r)
		if err != nil {
			status := http.StatusInternalServerError
			if ce, ok := err.(*consoleError); ok {
				status = ce.status
			} else {
				switch state := vsqlerr.From(err).SQLState; {
				case strings.HasPrefix(state, "3D"), state == "42P01", state == "42704":
					status = http.StatusNotFound // no such database, version or table
				case strings.HasPrefix(state, "22"), strings.HasPrefix(state, "42"):
					status = http.StatusBadRequest
				}
			}
			w.WriteHeader(status)
			c.render(w, "error.html", map[string]any{"User": l.user, "Error": err.Error()})
			return
		}
		data["User"], data["Elapsed"] = l.user, time.Since(start).Round(time.Microsecond).String()
		c.render(w, name, data)
	}
}

func (c *console) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'")
	if err := consoleTemplates.ExecuteTemplate(w, name, data); err != nil {
		c.s.log.Error("console template", "template", name, "err", err)
	}
}

// readable reports whether l may read db (any branch; branch "" ) or the
// named branch of it.
func (c *console) readable(l consoleLogin, db, branch string) bool {
	return c.s.privilege(l.user, l.role, db, branch) >= catalog.Read
}

func (c *console) databases(ctx context.Context, l consoleLogin, _ *http.Request) (string, map[string]any, error) {
	dbs, err := c.s.databases(ctx)
	if err != nil {
		return "", nil, err
	}
	var names []string
	for _, d := range dbs {
		if c.readable(l, d.Name, "") {
			names = append(names, d.Name)
		}
	}
	sort.Strings(names)
	return "databases.html", map[string]any{"Databases": names}, nil
}

func (c *console) database(ctx context.Context, l consoleLogin, r *http.Request) (string, map[string]any, error) {
	db := r.PathValue("db")
	if !c.readable(l, db, "") {
		return "", nil, forbidden("permission denied for database %q", db)
	}
	branchList, err := c.s.versions.Branches(ctx, db)
	if err != nil {
		return "", nil, err
	}
	snaps, err := c.s.versions.Snapshots(ctx, db)
	if err != nil {
		return "", nil, err
	}
	// What vsql_branches and vsql_snapshots would list for this login: the
	// branches it may read, and the snapshots taken on them.
	var visible []branches.BranchInfo
	for _, b := range branchList {
		if c.readable(l, db, b.Name) {
			visible = append(visible, b)
		}
	}
	var shown []catalog.Snapshot
	for _, sn := range snaps {
		if l.role == auth.RoleAdmin || c.readable(l, db, sn.Branch) {
			shown = append(shown, sn)
		}
	}
	return "database.html", map[string]any{"DB": db, "Branches": visible, "Snapshots": shown,
		"Graph": historyGraph(shown, visible)}, nil
}

// sideReadable checks a version a page reads as a SQL session would be
// checked (Server.check): a branch needs read on it, a snapshot (digits or
// a name) read on the branch it was taken on.
func (c *console) sideReadable(ctx context.Context, l consoleLogin, db, side string) error {
	branchList, err := c.s.versions.Branches(ctx, db)
	if err != nil {
		return err
	}
	need := accessNeed{db: db, snapshot: side, need: catalog.Read}
	for _, b := range branchList {
		if b.Name == side {
			need = accessNeed{db: db, branch: side, need: catalog.Read}
		}
	}
	if err := c.s.check(ctx, principal{user: l.user, role: l.role}, need); err != nil {
		return &consoleError{http.StatusForbidden, err.Error()}
	}
	return nil
}

// pageLinks sets a paged page's number and its previous and next pages
// (when they exist) out of total rows.
func pageLinks(data map[string]any, page int, total int64) {
	data["Page"] = page
	if int64(page*consolePageRows) < total {
		data["Next"] = page + 1
	}
	if page > 1 {
		data["Prev"] = page - 1
	}
}

func pageOf(r *http.Request) int {
	p, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || p < 1 {
		return 1
	}
	return p
}

func (c *console) diff(ctx context.Context, l consoleLogin, r *http.Request) (string, map[string]any, error) {
	db := r.PathValue("db")
	q := r.URL.Query()
	from, to, table := q.Get("from"), q.Get("to"), q.Get("table")
	if !c.readable(l, db, "") {
		return "", nil, forbidden("permission denied for database %q", db)
	}
	data := map[string]any{"DB": db, "From": from, "To": to, "Table": table}
	if from == "" || to == "" {
		return "diff.html", data, nil
	}
	for _, side := range []string{from, to} {
		if err := c.sideReadable(ctx, l, db, side); err != nil {
			return "", nil, err
		}
	}
	rows, err := c.s.versions.Diff(ctx, db, from, to, table)
	if err != nil {
		return "", nil, err
	}
	page := pageOf(r)
	lo := min((page-1)*consolePageRows, len(rows))
	data["Total"], data["Rows"] = len(rows), rows[lo:min(lo+consolePageRows, len(rows))]
	pageLinks(data, page, int64(len(rows)))
	return "diff.html", data, nil
}

func (c *console) rows(ctx context.Context, l consoleLogin, r *http.Request) (string, map[string]any, error) {
	db := r.PathValue("db")
	q := r.URL.Query()
	version, table := q.Get("version"), q.Get("table")
	if !c.readable(l, db, "") {
		return "", nil, forbidden("permission denied for database %q", db)
	}
	data := map[string]any{"DB": db, "Version": version, "Table": table}
	if version == "" {
		return "rows.html", data, nil
	}
	if err := c.sideReadable(ctx, l, db, version); err != nil {
		return "", nil, err
	}
	page := pageOf(r)
	rows, err := c.s.versions.Rows(ctx, db, version, table, (page-1)*consolePageRows, consolePageRows)
	if err != nil {
		return "", nil, err
	}
	data["Result"] = rows
	pageLinks(data, page, rows.Total)
	return "rows.html", data, nil
}

func (c *console) requests(ctx context.Context, l consoleLogin, r *http.Request) (string, map[string]any, error) {
	db := r.PathValue("db")
	if !c.readable(l, db, "") {
		return "", nil, forbidden("permission denied for database %q", db)
	}
	reqs, err := c.s.merger.Requests(ctx, db, "")
	if err != nil {
		return "", nil, err
	}
	type requestView struct {
		catalog.Request
		Resolutions []merge.Resolution
	}
	var out []requestView
	for i := len(reqs) - 1; i >= 0; i-- { // newest first
		res, err := c.s.merger.Resolutions(ctx, db, reqs[i].RequestID)
		if err != nil {
			return "", nil, err
		}
		out = append(out, requestView{reqs[i], res})
	}
	return "requests.html", map[string]any{"DB": db, "Requests": out}, nil
}

func (c *console) conflicts(ctx context.Context, l consoleLogin, r *http.Request) (string, map[string]any, error) {
	db := r.PathValue("db")
	q := r.URL.Query()
	ours, theirs := q.Get("ours"), q.Get("theirs")
	if !c.readable(l, db, "") {
		return "", nil, forbidden("permission denied for database %q", db)
	}
	data := map[string]any{"DB": db, "Ours": ours, "Theirs": theirs}
	if ours == "" || theirs == "" {
		return "conflicts.html", data, nil
	}
	for _, side := range []string{ours, theirs} {
		if err := c.sideReadable(ctx, l, db, side); err != nil {
			return "", nil, err
		}
	}
	rows, err := c.s.merger.PreviewBranch(ctx, db, ours, theirs, merge.Options{})
	if err != nil {
		return "", nil, err
	}
	type conflictView struct {
		Table string
		merge.ConflictDetail
	}
	var conflicts []conflictView
	var tables []merge.PreviewRow
	for _, p := range rows {
		tables = append(tables, p)
		for _, d := range p.Details {
			conflicts = append(conflicts, conflictView{p.TableName, d})
		}
	}
	if len(conflicts) > consolePageRows {
		data["More"] = len(conflicts) - consolePageRows
		conflicts = conflicts[:consolePageRows]
	}
	data["Tables"], data["Conflicts"] = tables, conflicts
	return "conflicts.html", data, nil
}

func (c *console) activity(_ context.Context, l consoleLogin, _ *http.Request) (string, map[string]any, error) {
	rows := c.s.activityAs(l.user, l.role == auth.RoleAdmin, nil)
	cols := make([]string, len(activityColumns))
	for i, col := range activityColumns {
		cols[i] = col.name
	}
	// the columns worth a glance: pid, datname, usename, application_name,
	// client_addr, backend_start, query_start, state, wait_event, query
	keep := []int{2, 1, 5, 6, 7, 10, 12, 16, 15, 20}
	var head []string
	for _, k := range keep {
		head = append(head, cols[k])
	}
	var body [][]string
	for _, row := range rows {
		var cells []string
		for _, k := range keep {
			switch v := row[k].(type) {
			case nil:
				cells = append(cells, "")
			case time.Time:
				cells = append(cells, v.UTC().Format("15:04:05"))
			default:
				cells = append(cells, fmt.Sprint(v))
			}
		}
		body = append(body, cells)
	}
	return "activity.html", map[string]any{"Columns": head, "Rows": body}, nil
}

// graphNode is one snapshot drawn in the history graph.
type graphNode struct {
	ID           int64
	X, Y         int
	Label, Title string
	Merge        bool
	Deleted      bool
}

type graphEdge struct {
	X1, Y1, X2, Y2 int
	Merge          bool // the edge from a merge's second parent
}

type graphLane struct {
	Name string
	Y    int
	Head bool
	HX   int
}

type graph struct {
	Width, Height int
	Nodes         []graphNode
	Edges         []graphEdge
	Lanes         []graphLane
}

// historyGraph lays a database's snapshots out left to right by id, one
// lane per branch that made them (main first), with an edge from each
// parent; a merge's second parent's edge is drawn dashed, and the merge
// snapshot as a double ring. Branch names sit at their lane's start, with
// their head marked.
func historyGraph(snaps []catalog.Snapshot, branchList []branches.BranchInfo) graph {
	const dx, dy, left, top = 56, 48, 120, 30
	sort.Slice(snaps, func(i, j int) bool { return snaps[i].ID < snaps[j].ID })
	laneOf := map[string]int{"main": 0}
	names := []string{"main"}
	for _, s := range snaps {
		if _, ok := laneOf[s.Branch]; !ok && s.Branch != "" {
			laneOf[s.Branch] = len(names)
			names = append(names, s.Branch)
		}
	}
	for _, b := range branchList {
		if _, ok := laneOf[b.Name]; !ok {
			laneOf[b.Name] = len(names)
			names = append(names, b.Name)
		}
	}
	pos := map[int64][2]int{}
	var g graph
	for i, s := range snaps {
		x, y := left+i*dx, top+laneOf[s.Branch]*dy
		pos[s.ID] = [2]int{x, y}
		label := strconv.FormatInt(s.ID, 10)
		title := fmt.Sprintf("snapshot %d (%s) on %s, %s", s.ID, s.Kind, s.Branch, s.CreatedAt.UTC().Format("2006-01-02 15:04:05"))
		if s.Name != "" {
			label += " " + s.Name
			title += ", named " + s.Name
		}
		if s.Deleted {
			title += ", deleted"
		}
		g.Nodes = append(g.Nodes, graphNode{ID: s.ID, X: x, Y: y, Label: label, Title: title, Merge: len(s.Parents) > 1, Deleted: s.Deleted})
	}
	for _, s := range snaps {
		to := pos[s.ID]
		for k, p := range s.Parents {
			if from, ok := pos[p]; ok {
				g.Edges = append(g.Edges, graphEdge{X1: from[0], Y1: from[1], X2: to[0], Y2: to[1], Merge: k > 0})
			}
		}
	}
	heads := map[string]int64{}
	for _, b := range branchList {
		heads[b.Name] = b.Head
	}
	for i, n := range names {
		lane := graphLane{Name: n, Y: top + i*dy}
		if h, ok := pos[heads[n]]; ok {
			lane.Head, lane.HX = true, h[0]
		}
		g.Lanes = append(g.Lanes, lane)
	}
	g.Width = left + max(len(snaps), 1)*dx + 80
	g.Height = top + len(names)*dy
	return g
}
