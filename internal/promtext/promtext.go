// Package promtext reads Prometheus' text exposition format into samples,
// for the tests and the bench that scrape vsqld's /metrics.
package promtext

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// Parse returns every sample of r as "name{labels}" → value; comments and
// blank lines are skipped, and a line whose value does not parse is an
// error.
func Parse(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, err
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}
