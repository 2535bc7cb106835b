package config

import (
	"errors"
	"fmt"
	"maps"
	"strings"
)

// field is where a key's value goes in a Config, and how it is read.
type field interface {
	// set parses val into c; part is what NAME or INDOM matched ("" for a
	// key without one), key the key as written.
	set(c *Config, key, part, val string) error
	// differ lists the parts whose values differ between a and b: one ""
	// for a key without a part.
	differ(a, b *Config) []string
	// take copies the whole setting from src to dst.
	take(dst, src *Config)
	// want says in words the values the key takes.
	want() string
}

// parser reads one value: want is what it takes, in words, and same
// compares two read values.
type parser[T any] struct {
	words string
	parse func(val string) (T, error)
	same  func(a, b T) bool
}

// errWant marks a value that is not one the key takes: the error says
// what it wants, in the parser's words.
var errWant = errors.New("unwanted value")

// selfNamed is an error that already names what it is about, as an
// interval's does, and is passed on as it is.
type selfNamed struct{ error }

// refusal words a parser's error as the file's errors are worded.
func (p parser[T]) refusal(key, val string, err error) error {
	var named selfNamed
	switch {
	case errors.Is(err, errWant):
		return fmt.Errorf("%s: want %s, got %q", key, p.words, val)
	case errors.As(err, &named):
		return named.error
	}
	return fmt.Errorf("%s: %v", key, err)
}

// single is a key that sets one field.
type single[T any] struct {
	at func(*Config) *T
	parser[T]
}

func (s single[T]) set(c *Config, key, _, val string) error {
	v, err := s.parse(val)
	if err != nil {
		return s.refusal(key, val, err)
	}
	*s.at(c) = v
	return nil
}

func (s single[T]) differ(a, b *Config) []string {
	if s.same(*s.at(a), *s.at(b)) {
		return nil
	}
	return []string{""}
}

func (s single[T]) take(dst, src *Config) { *s.at(dst) = *s.at(src) }
func (s single[T]) want() string          { return s.words }

// perName is a key with a NAME or INDOM in it: one value per name.
type perName[T any] struct {
	at func(*Config) *map[string]T
	parser[T]
}

func (p perName[T]) set(c *Config, key, part, val string) error {
	v, err := p.parse(val)
	if err != nil {
		return p.refusal(key, val, err)
	}
	m := p.at(c)
	if *m == nil {
		*m = map[string]T{}
	}
	(*m)[part] = v
	return nil
}

func (p perName[T]) differ(a, b *Config) []string {
	var parts []string
	ma, mb := *p.at(a), *p.at(b)
	for _, name := range sortedKeys(ma, mb) {
		if !p.same(ma[name], mb[name]) {
			parts = append(parts, name)
		}
	}
	return parts
}

func (p perName[T]) take(dst, src *Config) { *p.at(dst) = maps.Clone(*p.at(src)) }
func (p perName[T]) want() string          { return p.words }

// placeholder finds the word in a key's name that stands for the part
// the user picks, and whether that part may hold dots ("network.all" may).
func placeholder(name string) (word string, dots, ok bool) {
	switch {
	case strings.Contains(name, "INDOM"):
		return "INDOM", true, true
	case strings.Contains(name, "NAME"):
		return "NAME", false, true
	}
	return "", false, false
}

// match reports whether key is written as k's name says, and the part
// that stands for its placeholder ("" when it has none).
func (k Key) match(key string) (part string, ok bool) {
	word, dots, has := placeholder(k.Name)
	if !has {
		return "", key == k.Name
	}
	prefix, suffix, _ := strings.Cut(k.Name, word)
	if len(key) <= len(prefix)+len(suffix) || !strings.HasPrefix(key, prefix) || !strings.HasSuffix(key, suffix) {
		return "", false
	}
	part = key[len(prefix) : len(key)-len(suffix)]
	return part, dots || !strings.Contains(part, ".")
}

// Pattern reports whether the key's name holds a NAME or INDOM.
func (k Key) Pattern() bool {
	_, _, has := placeholder(k.Name)
	return has
}

// written is the key as written for a part its placeholder stands for.
func (k Key) written(part string) string {
	if word, _, has := placeholder(k.Name); has {
		return strings.Replace(k.Name, word, part, 1)
	}
	return k.Name
}

// Matches reports whether key is written as k's name says.
func (k Key) Matches(key string) bool {
	_, ok := k.match(key)
	return ok
}
