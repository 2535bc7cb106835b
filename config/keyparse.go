package config

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// The parsers the keys use, each with the words of its error.

func equal[T comparable](a, b T) bool { return a == b }

// millis reads an interval as parseMillis does; its errors name it.
func millis() parser[time.Duration] {
	return parser[time.Duration]{
		words: fmt.Sprintf("milliseconds from %d to %d, or a duration such as 1.5s",
			MinIntervalMS, MaxIntervalMS),
		parse: func(val string) (time.Duration, error) {
			d, err := parseMillis(val)
			var word notDuration
			if errors.As(err, &word) {
				return 0, errWant
			}
			if err != nil {
				return 0, selfNamed{err} // its range, in its own words
			}
			return d, nil
		},
		same: equal[time.Duration],
	}
}

// whole reads a whole number in [lo, hi]; unit names what it counts
// ("seconds"), zero what 0 means when lo is 0 ("never").
func whole(lo, hi int, unit, zero string) parser[int] {
	low := strconv.Itoa(lo)
	if zero != "" {
		low += " (" + zero + ")"
	}
	words := fmt.Sprintf("whole %s from %s to %d", unit, low, hi)
	if unit == "" {
		words = fmt.Sprintf("a whole number from %s to %d", low, hi)
	}
	return parser[int]{
		words: words,
		parse: func(val string) (int, error) {
			n, err := strconv.Atoi(val)
			if err != nil || n < lo || n > hi {
				return 0, errWant
			}
			return n, nil
		},
		same: equal[int],
	}
}

// scaled reads a whole number and stores it times unit, as a duration or
// a byte count.
func scaled[T ~int64](p parser[int], unit T) parser[T] {
	return parser[T]{
		words: p.words,
		parse: func(val string) (T, error) {
			n, err := p.parse(val)
			return T(n) * unit, err
		},
		same: equal[T],
	}
}

// yesNo reads a switch; disabled says whether the field holds its
// opposite (Disabled).
func yesNo(disabled bool) parser[bool] {
	return parser[bool]{
		words: "yes or no",
		parse: func(val string) (bool, error) {
			on, err := parseBool(val)
			if err != nil {
				return false, errWant
			}
			return on != disabled, nil
		},
		same: equal[bool],
	}
}

// oneOf reads one of a few words.
func oneOf(a, b string) parser[string] {
	return parser[string]{
		words: a + " or " + b,
		parse: func(val string) (string, error) {
			if val != a && val != b {
				return "", errWant
			}
			return val, nil
		},
		same: equal[string],
	}
}

// filePath reads a file or directory name, taken as written.
func filePath() parser[string] {
	return parser[string]{
		words: "a path",
		parse: func(val string) (string, error) { return val, nil },
		same:  equal[string],
	}
}

// ids reads user or group names or numbers, each resolved with lookup.
func ids(what string, lookup func(string) (uint32, error)) parser[[]uint32] {
	return parser[[]uint32]{
		words: what + " names or numbers, separated by commas or spaces",
		parse: func(val string) ([]uint32, error) { return resolveIDs(val, lookup) },
		same:  slices.Equal[[]uint32],
	}
}

// pattern reads a regular expression.
func pattern() parser[*regexp.Regexp] {
	return parser[*regexp.Regexp]{
		words: "a regular expression in RE2 syntax",
		parse: regexp.Compile,
		same:  samePattern,
	}
}

func samePattern(a, b *regexp.Regexp) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.String() == b.String()
}
