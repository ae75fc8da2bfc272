package server_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/server"
)

// consoleArtifacts is where the browser test keeps its screenshots
// (VSQL_ARTIFACTS, or artifacts/console at the repository's root).
func consoleArtifacts(t *testing.T) string {
	dir := os.Getenv("VSQL_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	dir = filepath.Join(dir, "console")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// retailExample is the README's example, as alice: database retail, a
// named snapshot, branch cleanup, a change on each side merged back (a
// merge snapshot), then one cell changed on both sides, whose merge fails
// with a conflict.
func retailExample(t *testing.T, addr string) {
	t.Helper()
	admin := mustLogin(t, addr, "alice", "postgres")
	mustExec(t, admin, "CREATE DATABASE retail")
	main := mustLogin(t, addr, "alice", "retail")
	mustExec(t, main, "CREATE TABLE orders (id int PRIMARY KEY, item text, qty int)",
		"INSERT INTO orders VALUES (1, 'pen', 1), (2, 'ink', 2)",
		"SELECT * FROM vsql_create_snapshot(name => 'baseline')",
		"SELECT * FROM vsql_create_branch('retail', 'cleanup')",
		"UPDATE orders SET qty = 5 WHERE id = 1", "SELECT * FROM vsql_create_snapshot()")
	cleanup := mustLogin(t, addr, "alice", "retail/cleanup")
	mustExec(t, cleanup, "UPDATE orders SET item = 'blue ink' WHERE id = 2", "INSERT INTO orders VALUES (3, 'pad', 7)",
		"SELECT * FROM vsql_create_snapshot()")
	mustExec(t, main, "SELECT * FROM vsql_merge_branch('retail', 'main', 'cleanup', 'main', request_id => 'merge-1')",
		"UPDATE orders SET qty = 9 WHERE id = 3", "SELECT * FROM vsql_create_snapshot()")
	mustExec(t, cleanup, "UPDATE orders SET qty = 8 WHERE id = 3", "SELECT * FROM vsql_create_snapshot()")
	if _, err := main.Exec(context.Background(), "SELECT * FROM vsql_merge_branch('retail', 'main', 'cleanup', 'main', request_id => 'merge-2')"); err == nil ||
		!strings.Contains(err.Error(), "merge_conflict") {
		t.Fatalf("the second merge: %v, want merge_conflict", err)
	}
}

func consoleServer(t *testing.T) (addr, base string) {
	httpAddr := freeAddr(t)
	addr = privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "bob": auth.RoleWrite},
		func(c *server.Config) { c.HTTPListen = httpAddr })
	return addr, "http://" + httpAddr
}

// TestConsoleInBrowser drives the console in headless Chromium: log in,
// open the retail database, see the branch graph with the merge drawn as a
// merge, open a diff, see the conflict of the failed merge and the merge
// requests. Screenshots go to the artifacts directory.
func TestConsoleInBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is required for the console test (apt-get install chromium); .ci/run installs it")
	}
	addr, base := consoleServer(t)
	retailExample(t, addr)
	shots := consoleArtifacts(t)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900), chromedp.Flag("disable-gpu", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	stop := time.AfterFunc(2*time.Minute, cancel) // the whole browser run
	defer stop.Stop()

	shot := func(name string) chromedp.Action[chromedp.Void] {
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			png, err := chromedp.FullScreenshot(100)(ctx, tg)
			if err != nil {
				return chromedp.Void{}, err
			}
			return chromedp.Void{}, os.WriteFile(filepath.Join(shots, name), png, 0o644)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	evalInt := func(expr string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
		must(err)
		return n
	}
	text := func(id string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID(id)))
		must(err)
		return s
	}
	must(chromedp.Do(ctx, chromedp.Navigate(base+"/db/retail"), chromedp.WaitVisible(chromedp.ID("user"))))
	loginURL, err := chromedp.Run(ctx, chromedp.Location())
	must(err)
	must(chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("user"), "alice"),
		chromedp.SendKeys(chromedp.ID("password"), "pw-alice"),
		shot("1-login.png"),
		chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.CSS("main ul")),
		chromedp.Navigate(base+"/db/retail"),
		chromedp.WaitVisible(chromedp.ID("history")),
		shot("2-history.png")))
	merges := evalInt(`document.querySelectorAll('#history circle.node.merge').length`)
	mergeEdges := evalInt(`document.querySelectorAll('#history path.merge-edge').length`)
	snapshots := evalInt(`document.querySelectorAll('#history g.snapshot').length`)
	must(chromedp.Do(ctx, chromedp.Navigate(base+"/db/retail/diff?from=baseline&to=main"), shot("3-diff.png")))
	summary := text("summary")
	must(chromedp.Do(ctx, chromedp.Navigate(base+"/db/retail/conflicts?ours=main&theirs=cleanup"), shot("4-conflicts.png")))
	conflictRows := text("conflicts")
	must(chromedp.Do(ctx, chromedp.Navigate(base+"/db/retail/requests"), shot("5-requests.png")))
	requests := text("requests")
	must(chromedp.Do(ctx, chromedp.Navigate(base+"/db/retail/rows?version=baseline&table=orders"), shot("6-rows.png")))
	total := text("total")
	rowsText := text("rows")
	if !strings.Contains(loginURL, "/login") {
		t.Errorf("an anonymous visit went to %s, not the login page", loginURL)
	}
	if snapshots != 6 || merges != 1 || mergeEdges != 1 {
		t.Errorf("history graph: %d snapshots, %d merge nodes, %d merge edges; want 6, 1, 1", snapshots, merges, mergeEdges)
	}
	if !strings.HasPrefix(summary, "3 changed rows from baseline to main") {
		t.Errorf("diff summary %q", summary)
	}
	if !strings.Contains(conflictRows, "orders") || !strings.Contains(conflictRows, "qty") || !strings.Contains(conflictRows, "cell") {
		t.Errorf("conflicts table %q", conflictRows)
	}
	if !strings.Contains(requests, "merge-1") || !strings.Contains(requests, "merge-2") || !strings.Contains(requests, "merge_conflict") {
		t.Errorf("requests table %q", requests)
	}
	if !strings.HasPrefix(total, "2 rows in orders") || !strings.Contains(rowsText, "ink") || strings.Contains(rowsText, "blue ink") {
		t.Errorf("rows of orders at baseline: %q %q", total, rowsText)
	}
	t.Logf("screenshots in %s", shots)
}

// TestConsoleAccess: the console needs a login, refuses a wrong password,
// and shows a login only what its grants let it read over SQL.
func TestConsoleAccess(t *testing.T) {
	addr, base := consoleServer(t)
	retailExample(t, addr)
	client := func() *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{Jar: jar}
	}
	get := func(c *http.Client, path string) (int, string, string) {
		t.Helper()
		resp, err := c.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Request.URL.Path, string(body)
	}
	login := func(c *http.Client, user, password string) {
		t.Helper()
		resp, err := c.PostForm(base+"/login", url.Values{"user": {user}, "password": {password}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}

	anon := client()
	if _, path, _ := get(anon, "/db/retail"); path != "/login" {
		t.Errorf("anonymous: ended at %s, want /login", path)
	}
	admin := client()
	login(admin, "alice", "pw-alice")
	for path, want := range map[string]int{"/db/nosuch": 404, "/db/retail/rows?version=99&table=orders": 404,
		"/db/retail/rows?version=1&table=nosuch": 400, "/db/retail/diff?from=baseline&to=main": 200} {
		if code, _, _ := get(admin, path); code != want {
			t.Errorf("alice %s: %d, want %d", path, code, want)
		}
	}
	login(anon, "alice", "wrong")
	if _, path, _ := get(anon, "/db/retail"); path != "/login" {
		t.Errorf("wrong password: ended at %s, want /login", path)
	}

	bob := client()
	login(bob, "bob", "pw-bob")
	if code, _, body := get(bob, "/"); code != 200 || strings.Contains(body, "retail") {
		t.Errorf("bob's databases: %d, lists retail: %v", code, strings.Contains(body, "retail"))
	}
	for _, path := range []string{"/db/retail", "/db/retail/diff?from=baseline&to=main", "/db/retail/requests", "/db/retail/conflicts?ours=main&theirs=cleanup"} {
		if code, _, _ := get(bob, path); code != http.StatusForbidden {
			t.Errorf("bob %s: %d, want 403", path, code)
		}
	}
	// granted read on cleanup only: the database, not main's side
	alice := mustLogin(t, addr, "alice", "retail")
	mustExec(t, alice, "SELECT * FROM vsql_grant('retail', 'bob', 'read', branch => 'cleanup')")
	if code, _, _ := get(bob, "/db/retail"); code != 200 {
		t.Errorf("bob with a grant: %d", code)
	}
	if code, _, _ := get(bob, "/db/retail/diff?from=cleanup&to=main"); code != http.StatusForbidden {
		t.Errorf("bob diffing main: %d, want 403", code)
	}
	// snapshots as over SQL: read on the branch each was taken on (2 on
	// main, 3 on cleanup); the history shows only cleanup's
	if code, _, _ := get(bob, "/db/retail/rows?version=2&table=orders"); code != http.StatusForbidden {
		t.Errorf("bob reading snapshot 2 of main: %d, want 403", code)
	}
	if code, _, body := get(bob, "/db/retail/rows?version=3&table=orders"); code != 200 || !strings.Contains(body, "blue ink") {
		t.Errorf("bob reading snapshot 3 of cleanup: %d", code)
	}
	if _, _, body := get(bob, "/db/retail"); strings.Contains(body, `data-id="2"`) || !strings.Contains(body, `data-id="3"`) || strings.Contains(body, ">main</td>") {
		t.Errorf("bob's history shows main's snapshots or branch")
	}
	if code, _, body := get(bob, "/activity"); code != 200 || strings.Contains(body, "vsql_merge_branch") {
		t.Errorf("bob's activity page: %d, shows alice's queries: %v", code, strings.Contains(body, "vsql_merge_branch"))
	}
}

// TestConsoleOverTLS: with the wire's certificate the HTTP address speaks
// HTTPS only (verified against the test's CA), and the login cookie is
// Secure.
func TestConsoleOverTLS(t *testing.T) {
	p := newPKI(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	httpAddr := ln.Addr().String()
	ln.Close()
	users := filepath.Join(t.TempDir(), "users")
	v, err := auth.NewVerifier("pw-alice", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := auth.UpdateUsers(users, func(u auth.Users) error { u["alice"] = auth.User{Verifier: v, Role: auth.RoleAdmin}; return nil }); err != nil {
		t.Fatal(err)
	}
	startServer(t, func(c *server.Config) {
		c.TLSCert, c.TLSKey, c.UsersFile, c.HTTPListen = p.certFile, p.keyFile, users, httpAddr
	})
	if resp, err := http.Get("http://" + httpAddr + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Error("plain HTTP answered 200 on a TLS address")
		}
	}
	caPEM, err := os.ReadFile(p.caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	base := "https://" + httpAddr
	resp, err := c.PostForm(base+"/login", url.Values{"user": {"alice"}, "password": {"pw-alice"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(base)
	cookies := jar.Cookies(u)
	raw := &http.Client{Transport: c.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	r2, err := raw.PostForm(base+"/login", url.Values{"user": {"alice"}, "password": {"pw-alice"}})
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if sc := r2.Header.Get("Set-Cookie"); !strings.Contains(sc, "Secure") || !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Strict") {
		t.Errorf("login cookie %q: want Secure, HttpOnly, SameSite=Strict", sc)
	}
	if len(cookies) != 1 || resp.Request.URL.Path != "/" || resp.StatusCode != 200 {
		t.Fatalf("login over HTTPS: %s at %s, cookies %v", resp.Status, resp.Request.URL.Path, cookies)
	}
	resp, err = c.Get(base + "/metrics")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("/metrics over HTTPS: %v %v", resp, err)
	}
	resp.Body.Close()
}
