package proc

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The hotproc predicate's tokens (hotpred.go).

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokVersion
	tokNumber
	tokString
	tokPattern
	tokNumVar
	tokStrVar
	tokTrue
	tokFalse
	tokAnd
	tokOr
	tokNot
	tokLParen
	tokRParen
	tokCompare // <, <=, >, >=, ==, !=
	tokMatch   // ~, !~
)

type token struct {
	kind  tokKind
	text  string // as written
	num   float64
	str   string // a string's or a pattern's text, without its delimiters
	index int    // a variable's index in hotVars
	line  int
}

// maxPredicateText bounds a configuration: pmstore and the file alike.
const maxPredicateText = 64 << 10

// lexPredicate splits text into tokens, ending with tokEOF.
func lexPredicate(text string) ([]token, error) {
	if len(text) > maxPredicateText {
		return nil, fmt.Errorf("the predicate is %d bytes, more than %d", len(text), maxPredicateText)
	}
	lx := lexer{src: text, line: 1}
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		lx.toks = append(lx.toks, t)
		if t.kind == tokEOF {
			return lx.toks, nil
		}
	}
}

type lexer struct {
	src  string
	pos  int
	line int
	toks []token
}

func (lx *lexer) next() (token, error) {
	lx.skipBlanks()
	if lx.pos >= len(lx.src) {
		return token{kind: tokEOF, line: lx.line}, nil
	}
	c := lx.src[lx.pos]
	switch {
	case isLetter(c):
		return lx.word()
	case c >= '0' && c <= '9' || c == '.':
		return lx.number()
	case c == '"':
		return lx.delimited('"', tokString)
	case c == '/':
		return lx.delimited('/', tokPattern)
	}
	return lx.operator()
}

// skipBlanks passes blanks, newlines and comments.
func (lx *lexer) skipBlanks() {
	for lx.pos < len(lx.src) {
		switch c := lx.src[lx.pos]; {
		case c == '\n':
			lx.line++
			lx.pos++
		case c == ' ' || c == '\t' || c == '\r':
			lx.pos++
		case c == '#':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			return
		}
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (lx *lexer) word() (token, error) {
	start := lx.pos
	for lx.pos < len(lx.src) && isLetter(lx.src[lx.pos]) {
		lx.pos++
	}
	w := lx.src[start:lx.pos]
	t := token{text: w, line: lx.line}
	switch w {
	case "Version":
		t.kind = tokVersion
	case "true":
		t.kind = tokTrue
	case "false":
		t.kind = tokFalse
	case "syscalls":
		return t, fmt.Errorf("line %d: syscalls: Linux counts no system calls per process, and no value is kept", lx.line)
	default:
		if i := slices.Index(numVarNames[:], w); i >= 0 {
			t.kind, t.index = tokNumVar, i
		} else if i := slices.Index(strVarNames[:], w); i >= 0 {
			t.kind, t.index = tokStrVar, i
		} else {
			return t, fmt.Errorf("line %d: %q is no word of the predicate language", lx.line, w)
		}
	}
	return t, nil
}

// number reads 12, 1.5, .5 or 12. as pmdaproc's lexer does.
func (lx *lexer) number() (token, error) {
	start, dots := lx.pos, 0
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if c == '.' {
			dots++
		} else if c < '0' || c > '9' {
			break
		}
		lx.pos++
	}
	text := lx.src[start:lx.pos]
	v, err := strconv.ParseFloat(text, 64)
	if dots > 1 || text == "." || err != nil {
		return token{}, fmt.Errorf("line %d: %q is not a number", lx.line, text)
	}
	return token{kind: tokNumber, text: text, num: v, line: lx.line}, nil
}

// delimited reads a "string" or a /pattern/: neither spans lines.
func (lx *lexer) delimited(end byte, kind tokKind) (token, error) {
	start := lx.pos
	lx.pos++
	stop := strings.IndexAny(lx.src[lx.pos:], string(end)+"\n")
	if stop < 0 || lx.src[lx.pos+stop] != end {
		what := "string"
		if kind == tokPattern {
			what = "pattern"
		}
		return token{}, fmt.Errorf("line %d: the %s %s has no closing %c", lx.line, what, lx.src[start:], end)
	}
	body := lx.src[lx.pos : lx.pos+stop]
	lx.pos += stop + 1
	return token{kind: kind, text: lx.src[start:lx.pos], str: body, line: lx.line}, nil
}

var operators = []struct {
	text string
	kind tokKind
}{
	{"&&", tokAnd}, {"||", tokOr}, {"!~", tokMatch}, {"!=", tokCompare}, {"==", tokCompare},
	{"<=", tokCompare}, {">=", tokCompare}, {"<", tokCompare}, {">", tokCompare}, {"~", tokMatch},
	{"!", tokNot}, {"(", tokLParen}, {")", tokRParen},
}

func (lx *lexer) operator() (token, error) {
	for _, op := range operators {
		if strings.HasPrefix(lx.src[lx.pos:], op.text) {
			lx.pos += len(op.text)
			return token{kind: op.kind, text: op.text, line: lx.line}, nil
		}
	}
	return token{}, fmt.Errorf("line %d: %q is no character of the predicate language", lx.line, lx.src[lx.pos:lx.pos+1])
}
