package pgcompat

import (
	"database/sql/driver"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// numDesc is what a numeric template asks for (PostgreSQL's NUMDesc).
type numDesc struct {
	pre, post, multi         int
	decimal, zero, fill      bool
	lsign                    int // 0 none, 1 before the digits, 2 after
	preLsign                 int
	zeroStart, zeroEnd       int
	bracket, minus, plus     bool
	minusPost, plusPost      bool
	roman, eeee, blank, sign bool
}

func syntaxError(format string, args ...any) *vsqlerr.Error {
	return vsqlerr.New(vsqlerr.TemplateSyntax, format, args...)
}

// describe reads a numeric template's digits and flags, with
// PostgreSQL's errors for impossible combinations.
func describe(nodes []fmtNode) (numDesc, error) {
	var d numDesc
	for _, n := range nodes {
		if n.kind != nodeKey {
			continue
		}
		k := strings.ToUpper(n.key)
		if d.eeee && (k == "9" || k == "0" || k == "." || k == "D") {
			return d, syntaxError(`"EEEE" must be the last pattern used`)
		}
		switch k {
		case "9":
			if d.bracket {
				return d, syntaxError(`"9" must be ahead of "PR"`)
			}
			switch {
			case d.sign: // after V: a power of ten
				d.multi++
			case d.decimal:
				d.post++
			default:
				d.pre++
			}
		case "0":
			if d.bracket {
				return d, syntaxError(`"0" must be ahead of "PR"`)
			}
			if !d.zero {
				d.zero = true
				d.zeroStart = d.pre + 1
			}
			if !d.decimal {
				d.pre++
			} else {
				d.post++
			}
			d.zeroEnd = d.pre + d.post
		case "B":
			if d.pre == 0 && d.post == 0 && !d.zero {
				d.blank = true
			}
		case "D", ".":
			if d.decimal {
				return d, syntaxError("multiple decimal points")
			}
			if d.multi > 0 {
				return d, syntaxError(`cannot use "V" and decimal point together`)
			}
			d.decimal = true
		case "FM":
			d.fill = true
		case "S":
			if d.lsign != 0 {
				return d, syntaxError(`cannot use "S" twice`)
			}
			if d.plus || d.minus || d.bracket {
				return d, syntaxError(`cannot use "S" and "PL"/"MI"/"SG"/"PR" together`)
			}
			if !d.decimal {
				d.lsign, d.preLsign = 1, d.pre
			} else {
				d.lsign = 2
			}
		case "MI":
			if d.lsign != 0 {
				return d, syntaxError(`cannot use "S" and "MI" together`)
			}
			d.minus = true
			d.minusPost = d.decimal
		case "PL":
			if d.lsign != 0 {
				return d, syntaxError(`cannot use "S" and "PL" together`)
			}
			d.plus = true
			d.plusPost = d.decimal
		case "SG":
			if d.lsign != 0 {
				return d, syntaxError(`cannot use "S" and "SG" together`)
			}
			d.plus, d.minus = true, true
		case "PR":
			if d.lsign != 0 || d.plus || d.minus {
				return d, syntaxError(`cannot use "PR" and "S"/"PL"/"MI"/"SG" together`)
			}
			d.bracket = true
		case "RN":
			d.roman = true
		case "V":
			if d.decimal {
				return d, syntaxError(`cannot use "V" and decimal point together`)
			}
			d.sign = true // V seen: later 9s multiply
		case "EEEE", "E":
			if d.eeee {
				return d, syntaxError(`cannot use "EEEE" twice`)
			}
			if d.blank || d.fill || d.lsign != 0 || d.bracket || d.minus || d.plus || d.roman || d.sign {
				return d, syntaxError(`"EEEE" is incompatible with other formats`).WithHint(`"EEEE" may only be used together with digit and decimal point patterns.`)
			}
			d.eeee = true
		}
	}
	return d, nil
}

// toCharNumber is to_char of a number.
func toCharNumber(v driver.Value, template string) (any, error) {
	nodes := parseTemplate(template, true)
	d, err := describe(nodes)
	if err != nil {
		return nil, err
	}
	text, isFloat, err := numberText(v)
	if err != nil {
		return nil, err
	}
	var f float64
	if isFloat {
		switch x := v.(type) {
		case float64:
			f = x
		case float32:
			f = float64(x)
		}
	}
	var number string
	sign := byte('+')
	prespaces := 0
	switch {
	case d.roman:
		var n int64
		if isFloat {
			n = int64(math.Round(f))
		} else {
			r, _ := new(big.Rat).SetString(text)
			n = roundRat(r, 0).Num().Int64()
		}
		number = roman(n)
	case d.eeee:
		digits := d.post
		if isFloat {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				number = strings.Repeat("#", d.pre+d.post+6)
				number = number[:d.pre] + "." + number[d.pre+1:]
				break
			}
			number = strconv.FormatFloat(f, 'e', digits, 64)
		} else {
			r, _ := new(big.Rat).SetString(text)
			number = sciText(r, digits)
		}
		if number[0] != '-' {
			number = " " + number
		}
	default:
		if d.multi > 0 {
			if isFloat {
				f *= math.Pow10(d.multi)
			} else {
				text = shiftDecimal(text, d.multi)
			}
			d.pre += d.multi
		}
		var s string
		if isFloat {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				s = "#"
			} else {
				post, digits := d.post, 15 // DBL_DIG
				if _, ok := v.(float32); ok {
					digits = 6 // FLT_DIG
				}
				intDigits := len(strconv.FormatFloat(math.Abs(f), 'f', 0, 64))
				if intDigits >= digits {
					post = 0
				} else if intDigits+post > digits {
					post = digits - intDigits
				}
				s = strconv.FormatFloat(f, 'f', post, 64)
			}
		} else {
			r, _ := new(big.Rat).SetString(text)
			s = roundRat(r, d.post).FloatString(d.post)
		}
		if strings.HasPrefix(s, "-") {
			sign, s = '-', s[1:]
			if strings.Trim(s, "0.") == "" {
				sign = '+' // -0.00 prints as 0.00
			}
		}
		preLen := len(s)
		if p := strings.IndexByte(s, '.'); p >= 0 {
			preLen = p
		}
		if s == "#" || preLen > d.pre && !(preLen == 1 && s[0] == '0' && d.pre == 0) {
			s = strings.Repeat("#", d.pre+d.post+1)
			s = s[:d.pre] + "." + s[d.pre+1:]
		} else if preLen < d.pre {
			prespaces = d.pre - preLen
		}
		if d.pre == 0 && strings.HasPrefix(s, "0") && len(s) > 1 {
			s = s[1:] // '0.5' with '.9': no digit before the point
		}
		number = s
	}
	return numProcess(nodes, d, number, sign, prespaces), nil
}

// numProcess writes number (digits and point, no sign) into the template
// as PostgreSQL's NUM_processor does for to_char.
func numProcess(nodes []fmtNode, d numDesc, number string, sign byte, prespaces int) string {
	var b strings.Builder
	if d.eeee {
		return number
	}
	if d.roman {
		for _, n := range nodes {
			if n.kind != nodeKey {
				b.WriteString(n.text)
				continue
			}
			switch n.key {
			case "RN", "rn":
				r := number
				if n.key == "rn" {
					r = strings.ToLower(r)
				}
				if !d.fill {
					r = strings.Repeat(" ", max(0, 15-len(r))) + r
				}
				b.WriteString(r)
			}
		}
		return b.String()
	}
	lastRelevant := -1 // index in number of the last digit that is printed in fill mode
	if d.fill && d.decimal {
		lastRelevant = lastRelevantDigit(number)
		if lastRelevant >= 0 && d.zeroEnd > prespaces {
			if z := d.zeroEnd - prespaces; z < len(number) && z > lastRelevant {
				lastRelevant = z
			} else if z >= len(number) {
				lastRelevant = len(number) - 1
			}
		}
	}
	signWrote := false
	bracket := d.bracket
	lsign := d.lsign
	if d.plus || d.minus {
		signWrote = !(d.plus && !d.minus)
	} else {
		if sign != '-' && d.fill {
			bracket = false
		}
		signWrote = sign == '+' && d.fill && lsign == 0
		if lsign == 1 && d.pre == d.preLsign {
			lsign = 2
		}
	}
	zeroStart := d.zeroStart
	if zeroStart > 0 {
		zeroStart--
	}
	numCount := d.post + d.pre - 1
	cur, np := 0, 0
	numIn := false
	relevantIsPoint := lastRelevant >= 0 && number[lastRelevant] == '.'
	predecSpace := func() bool {
		return !d.zero && np == 0 && len(number) > 0 && number[0] == '0' && d.post != 0
	}
	part := func(key string) {
		numIn = false
		if !signWrote && (cur >= prespaces || d.zero && zeroStart == cur) && (!predecSpace() || relevantIsPoint) {
			switch {
			case lsign != 0:
				if lsign == 1 {
					b.WriteByte(sign)
					signWrote = true
				}
			case bracket:
				if sign == '+' {
					b.WriteByte(' ')
				} else {
					b.WriteByte('<')
				}
				signWrote = true
			case sign == '+':
				if !d.fill {
					b.WriteByte(' ')
				}
				signWrote = true
			default:
				b.WriteByte('-')
				signWrote = true
			}
		}
		switch {
		case cur < prespaces && (zeroStart > cur || !d.zero):
			if !d.fill {
				b.WriteByte(' ')
			}
		case d.zero && cur < prespaces && zeroStart <= cur:
			b.WriteByte('0')
			numIn = true
		default:
			if np < len(number) && number[np] == '.' {
				if !relevantIsPoint || d.fill {
					b.WriteByte('.')
				}
			} else {
				switch {
				case lastRelevant >= 0 && np > lastRelevant && key != "0":
				case predecSpace():
					if !d.fill {
						b.WriteByte(' ')
					} else if relevantIsPoint {
						b.WriteByte('0')
					}
				default:
					if np < len(number) {
						b.WriteByte(number[np])
					}
					numIn = true
				}
			}
			if np < len(number) {
				np++
			}
		}
		end := numCount + 1
		if d.decimal {
			end++
		}
		if lastRelevant >= 0 && lastRelevant == np {
			end = cur
		}
		if cur+1 == end {
			if signWrote && bracket {
				if sign == '+' {
					b.WriteByte(' ')
				} else {
					b.WriteByte('>')
				}
			} else if lsign == 2 {
				b.WriteByte(sign)
			}
		}
		cur++
	}
	for _, n := range nodes {
		if n.kind != nodeKey {
			b.WriteString(n.text)
			continue
		}
		switch strings.ToUpper(n.key) {
		case "9", "0", ".", "D":
			part(n.key)
		case ",", "G":
			if !numIn {
				if d.fill {
					continue
				}
				b.WriteByte(' ')
			} else {
				b.WriteByte(',')
			}
		case "L":
			b.WriteByte(' ')
		case "TH":
			if strings.HasPrefix(number, "#") || sign == '-' || d.decimal {
				continue
			}
			v, _ := strconv.ParseInt(strings.TrimLeft(number, " "), 10, 64)
			b.WriteString(ordinal(v%100, n.key == "TH"))
		case "MI":
			if sign == '-' {
				b.WriteByte('-')
			} else if !d.fill {
				b.WriteByte(' ')
			}
		case "PL":
			if sign == '+' {
				b.WriteByte('+')
			} else if !d.fill {
				b.WriteByte(' ')
			}
		case "SG":
			b.WriteByte(sign)
		}
	}
	return b.String()
}

// lastRelevantDigit is the index of the last nonzero digit after the
// point (or of the point), -1 without a point.
func lastRelevantDigit(number string) int {
	p := strings.IndexByte(number, '.')
	if p < 0 {
		return -1
	}
	last := p
	for i := p + 1; i < len(number); i++ {
		if number[i] != '0' {
			last = i
		}
	}
	return last
}

// roundRat rounds r to scale digits, half away from zero (numeric's
// rounding).
func roundRat(r *big.Rat, scale int) *big.Rat {
	m := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(m))
	num, den := x.Num(), x.Denom()
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	twice := new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2))
	if twice.Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return new(big.Rat).SetFrac(q, m)
}

// sciText is r in scientific notation with digits after the point
// (numeric_out_sci): d.ddde+NN.
func sciText(r *big.Rat, digits int) string {
	if r.Sign() == 0 {
		return "0" + pointZeros(digits) + "e+00"
	}
	neg := r.Sign() < 0
	a := new(big.Rat).Abs(r)
	exp := 0
	ten := big.NewRat(10, 1)
	for a.Cmp(ten) >= 0 {
		a.Quo(a, ten)
		exp++
	}
	for a.Cmp(big.NewRat(1, 1)) < 0 {
		a.Mul(a, ten)
		exp--
	}
	a = roundRat(a, digits)
	if a.Cmp(ten) >= 0 {
		a.Quo(a, ten)
		exp++
	}
	s := a.FloatString(digits)
	es := "+"
	if exp < 0 {
		es, exp = "-", -exp
	}
	e := strconv.Itoa(exp)
	if len(e) < 2 {
		e = "0" + e
	}
	if neg {
		s = "-" + s
	}
	return s + "e" + es + e
}

func pointZeros(n int) string {
	if n == 0 {
		return ""
	}
	return "." + strings.Repeat("0", n)
}

// shiftDecimal multiplies decimal text by 10^n.
func shiftDecimal(s string, n int) string {
	r, _ := new(big.Rat).SetString(s)
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(n))), nil))
	scale := countDecimals(s)
	if n < 0 {
		r.Quo(r, p)
		scale -= n
	} else {
		r.Mul(r, p)
	}
	return r.FloatString(scale)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func countDecimals(s string) int {
	if p := strings.IndexByte(s, '.'); p >= 0 {
		return len(s) - p - 1
	}
	return 0
}

// roman is n in upper-case Roman numerals; outside 1…3999, 15 #.
func roman(n int64) string {
	if n < 1 || n > 3999 {
		return strings.Repeat("#", 15)
	}
	vals := []int64{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

// toNumber is to_number(text, template): the digits, point and sign the
// template's fields find in s.
func toNumber(s, template string) (any, error) {
	nodes := parseTemplate(template, true)
	d, err := describe(nodes)
	if err != nil {
		return nil, err
	}
	if d.eeee {
		return nil, syntaxError(`"EEEE" not supported for input`)
	}
	if d.roman {
		return nil, syntaxError(`"RN" not supported for input`)
	}
	var digits strings.Builder
	neg, point, readPre, readPost := false, false, 0, 0
	signRead := false
	i := 0
	for _, n := range nodes {
		if i >= len(s) {
			break
		}
		if n.kind != nodeKey {
			i += runeLen(s, i)
			continue
		}
		switch strings.ToUpper(n.key) {
		case "9", "0", ".", "D":
			if s[i] == ' ' {
				i++
			}
			if i < len(s) && !signRead && readPre+readPost == 0 && (n.key == "9" || n.key == "0") {
				if s[i] == '-' || d.bracket && s[i] == '<' {
					neg, signRead = true, true
					i++
				} else if s[i] == '+' {
					signRead = true
					i++
				}
			}
			if i >= len(s) {
				break
			}
			isread := false
			switch {
			case isDigit(s[i]):
				if point && readPost == d.post {
					break
				}
				digits.WriteByte(s[i])
				if point {
					readPost++
				} else {
					readPre++
				}
				isread = true
				i++
			case d.decimal && !point && s[i] == '.':
				digits.WriteByte('.')
				point, isread = true, true
				i++
			}
			if !signRead && readPre+readPost > 0 && i < len(s) {
				if d.lsign != 0 && isread && (s[i] == '-' || s[i] == '+') && (i+1 >= len(s) || !isDigit(s[i+1])) {
					neg, signRead = s[i] == '-', true
					i++
				} else if !isread && d.lsign == 0 && (d.plus || d.minus) && (s[i] == '-' || s[i] == '+') {
					neg, signRead = s[i] == '-', true
					i++
				}
			}
		case ",", "G":
			if s[i] == ',' {
				i++
			}
		case "L":
			if s[i] == '$' || s[i] == ' ' {
				i++
			}
		case "S", "MI", "PL", "SG":
			if !signRead && (s[i] == '-' || s[i] == '+') {
				neg, signRead = s[i] == '-', true
				i++
			}
		case "PR":
			if s[i] == '>' {
				i++
			}
		case "TH":
			if i+2 <= len(s) {
				i += 2
			}
		}
	}
	text := digits.String()
	if strings.Trim(text, ".") == "" {
		return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type numeric: %q", " ")
	}
	if d.multi > 0 {
		text = shiftDecimal(text, -d.multi)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type numeric: %q", text)
	}
	if neg {
		f = -f
	}
	return f, nil
}
