package proc

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The hotproc predicate: pmdaproc's language for choosing the "hot"
// processes (pmdaproc(1), HOTPROC CONFIGURATION). One predicate of
// comparisons joined by &&, || and !, over the variables below; an
// optional "Version 1.0" first; # starts a comment to the end of the line.
// Patterns are Go regular expressions, which take the ERE forms the
// manual's examples use (/[fF](o)+bar/).

// hotVars are one process's values at a refresh, as the predicate reads
// them.
type hotVars struct {
	num [numVars]float64
	str [strVars]string
}

// Numeric variables, in hotVars.num.
const (
	varUID = iota
	varGID
	varCPUBurn
	varCtxSwitch
	varVirtualSize
	varResidentSize
	varIODemand
	varIOWait
	varSchedWait
	numVars
)

// String variables, in hotVars.str.
const (
	varUname = iota
	varGname
	varFname
	varPsargs
	strVars
)

var numVarNames = [numVars]string{"uid", "gid", "cpuburn", "ctxswitch", "virtualsize", "residentsize",
	"iodemand", "iowait", "schedwait"}

var strVarNames = [strVars]string{"uname", "gname", "fname", "psargs"}

// predicate is a parsed hotproc predicate.
type predicate interface {
	eval(v *hotVars) bool
	// dump writes it as pmdaproc gives hotproc.control.config: every
	// node in parentheses.
	dump(b *strings.Builder)
}

type (
	andPred   struct{ l, r predicate }
	orPred    struct{ l, r predicate }
	notPred   struct{ x predicate }
	constPred bool
	numCmp    struct {
		op   string
		l, r numTerm
	}
	strCmp struct {
		neq  bool
		l, r strTerm
	}
	matchCmp struct {
		neg bool
		l   strTerm
		re  *regexp.Regexp
		src string
	}
)

// numTerm is a number or a numeric variable (v >= 0).
type numTerm struct {
	v   int
	lit float64
}

// strTerm is a string or a string variable (v >= 0).
type strTerm struct {
	v   int
	lit string
}

func (p andPred) eval(v *hotVars) bool  { return p.l.eval(v) && p.r.eval(v) }
func (p orPred) eval(v *hotVars) bool   { return p.l.eval(v) || p.r.eval(v) }
func (p notPred) eval(v *hotVars) bool  { return !p.x.eval(v) }
func (p constPred) eval(*hotVars) bool  { return bool(p) }
func (p matchCmp) eval(v *hotVars) bool { return p.re.MatchString(p.l.value(v)) != p.neg }
func (p strCmp) eval(v *hotVars) bool   { return (p.l.value(v) == p.r.value(v)) != p.neq }
func (t numTerm) value(v *hotVars) float64 {
	if t.v >= 0 {
		return v.num[t.v]
	}
	return t.lit
}
func (t strTerm) value(v *hotVars) string {
	if t.v >= 0 {
		return v.str[t.v]
	}
	return t.lit
}

func (p numCmp) eval(v *hotVars) bool {
	x, y := p.l.value(v), p.r.value(v)
	switch p.op {
	case "<":
		return x < y
	case "<=":
		return x <= y
	case ">":
		return x > y
	case ">=":
		return x >= y
	case "==":
		return x == y
	}
	return x != y
}

func (p andPred) dump(b *strings.Builder) { dumpPair(b, p.l, " && ", p.r) }
func (p orPred) dump(b *strings.Builder)  { dumpPair(b, p.l, " || ", p.r) }
func (p notPred) dump(b *strings.Builder) {
	b.WriteString("(! ")
	p.x.dump(b)
	b.WriteString(")")
}
func (p constPred) dump(b *strings.Builder) { fmt.Fprintf(b, "(%t)", bool(p)) }
func (p numCmp) dump(b *strings.Builder) {
	fmt.Fprintf(b, "(%s %s %s)", p.l.text(), p.op, p.r.text())
}
func (p strCmp) dump(b *strings.Builder) {
	op := "=="
	if p.neq {
		op = "!="
	}
	fmt.Fprintf(b, "(%s %s %s)", p.l.text(), op, p.r.text())
}
func (p matchCmp) dump(b *strings.Builder) {
	op := "~"
	if p.neg {
		op = "!~"
	}
	fmt.Fprintf(b, "(%s %s \"%s\")", p.l.text(), op, p.src)
}

func dumpPair(b *strings.Builder, l predicate, op string, r predicate) {
	b.WriteString("(")
	l.dump(b)
	b.WriteString(op)
	r.dump(b)
	b.WriteString(")")
}

// text is a number as pmdaproc prints it: whole numbers as integers,
// others with six decimals.
func (t numTerm) text() string {
	if t.v >= 0 {
		return numVarNames[t.v]
	}
	if t.lit == float64(int32(t.lit)) {
		return strconv.Itoa(int(t.lit))
	}
	return strconv.FormatFloat(t.lit, 'f', 6, 64)
}

func (t strTerm) text() string {
	if t.v >= 0 {
		return strVarNames[t.v]
	}
	return `"` + t.lit + `"`
}

// dumpPredicate is p's text as hotproc.control.config gives it.
func dumpPredicate(p predicate) string {
	var b strings.Builder
	p.dump(&b)
	return b.String()
}

// parsePredicate parses a configuration's text. A text with no predicate
// (empty, or only comments) gives nil and no error: hotproc is then off.
func parsePredicate(text string) (predicate, error) {
	toks, err := lexPredicate(text)
	if err != nil {
		return nil, err
	}
	p := &predParser{toks: toks}
	if p.peek().kind == tokEOF {
		return nil, nil
	}
	if p.peek().kind == tokVersion {
		p.next()
		n := p.next()
		if n.kind != tokNumber {
			return nil, p.errorAt(n, "a version number after Version")
		}
		if n.num != 1.0 {
			return nil, fmt.Errorf("line %d: version %s: only version 1.0 is known", n.line, n.text)
		}
	}
	pred, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errorAt(t, "the end of the predicate")
	}
	return pred, nil
}

type predParser struct {
	toks []token
	pos  int
}

func (p *predParser) peek() token { return p.toks[p.pos] }

func (p *predParser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

func (p *predParser) errorAt(t token, want string) error {
	if t.kind == tokEOF {
		return fmt.Errorf("line %d: the predicate ends where it wants %s", t.line, want)
	}
	return fmt.Errorf("line %d: %q where the predicate wants %s", t.line, t.text, want)
}

func (p *predParser) or() (predicate, error) {
	l, err := p.and()
	for err == nil && p.peek().kind == tokOr {
		p.next()
		var r predicate
		if r, err = p.and(); err == nil {
			l = orPred{l, r}
		}
	}
	return l, err
}

func (p *predParser) and() (predicate, error) {
	l, err := p.not()
	for err == nil && p.peek().kind == tokAnd {
		p.next()
		var r predicate
		if r, err = p.not(); err == nil {
			l = andPred{l, r}
		}
	}
	return l, err
}

func (p *predParser) not() (predicate, error) {
	if p.peek().kind != tokNot {
		return p.primary()
	}
	p.next()
	x, err := p.not()
	return notPred{x}, err
}

func (p *predParser) primary() (predicate, error) {
	t := p.peek()
	switch t.kind {
	case tokLParen:
		p.next()
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tokRParen {
			return nil, p.errorAt(c, "a closing parenthesis")
		}
		return x, nil
	case tokTrue, tokFalse:
		p.next()
		return constPred(t.kind == tokTrue), nil
	case tokNumber, tokNumVar:
		return p.numComparison()
	case tokString, tokStrVar:
		return p.strComparison()
	}
	return nil, p.errorAt(t, "a comparison")
}

func (p *predParser) numComparison() (predicate, error) {
	l := numTermOf(p.next())
	op := p.next()
	if op.kind != tokCompare {
		return nil, p.errorAt(op, "a number comparison (<, <=, >, >=, ==, !=)")
	}
	r := p.next()
	if r.kind != tokNumber && r.kind != tokNumVar {
		return nil, p.errorAt(r, "a number or a numeric variable")
	}
	return numCmp{op: op.text, l: l, r: numTermOf(r)}, nil
}

func (p *predParser) strComparison() (predicate, error) {
	l := strTermOf(p.next())
	op := p.next()
	switch {
	case op.kind == tokMatch:
		pat := p.next()
		if pat.kind != tokPattern {
			return nil, p.errorAt(pat, "a /pattern/")
		}
		re, err := regexp.Compile(pat.str)
		if err != nil {
			return nil, fmt.Errorf("line %d: pattern /%s/: %v", pat.line, pat.str, err)
		}
		return matchCmp{neg: op.text == "!~", l: l, re: re, src: pat.str}, nil
	case op.kind == tokCompare && (op.text == "==" || op.text == "!="):
		r := p.next()
		if r.kind != tokString && r.kind != tokStrVar {
			return nil, p.errorAt(r, "a string or a string variable")
		}
		return strCmp{neq: op.text == "!=", l: l, r: strTermOf(r)}, nil
	}
	return nil, p.errorAt(op, "a string comparison (==, !=, ~, !~)")
}

func numTermOf(t token) numTerm {
	if t.kind == tokNumVar {
		return numTerm{v: t.index}
	}
	return numTerm{v: -1, lit: t.num}
}

func strTermOf(t token) strTerm {
	if t.kind == tokStrVar {
		return strTerm{v: t.index}
	}
	return strTerm{v: -1, lit: t.str}
}
