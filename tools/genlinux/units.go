package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// The scale words of pmUnitsStr, indexed by PM_SPACE_* and PM_TIME_*.
var (
	spaceWords = []string{"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte"}
	timeWords  = []string{"nanosec", "microsec", "millisec", "sec", "min", "hour"}
)

// units collects the dimensions and scales of a units string.
type units struct {
	dim, scale [3]int // space, time, count
	seen       [3]bool
}

// parseUnits reads units as pminfo prints them (pmUnitsStr): "none",
// "Kbyte", "count / sec", "/ microsec", "byte^2 / sec", "count x 10^3",
// and "x 10^3" for a count scale without a dimension. A scale of a zero
// dimension is not printed and reads as 0.
func parseUnits(s string) (cache.Units, error) {
	if s == "none" {
		return cache.UnitsNone, nil
	}
	if rest, ok := strings.CutPrefix(s, "x "); ok {
		scale, err := tenPower(rest)
		return cache.MakeUnits(0, 0, 0, 0, 0, scale), err
	}
	num, den := s, ""
	if rest, ok := strings.CutPrefix(s, "/ "); ok {
		num, den = "", rest
	} else if n, d, ok := strings.Cut(s, " / "); ok {
		num, den = n, d
	}
	var u units
	if err := u.terms(num, 1); err != nil {
		return 0, fmt.Errorf("units %q: %w", s, err)
	}
	if err := u.terms(den, -1); err != nil {
		return 0, fmt.Errorf("units %q: %w", s, err)
	}
	if u == (units{}) {
		return 0, fmt.Errorf("units %q: no dimension", s)
	}
	return cache.MakeUnits(u.dim[0], u.dim[1], u.dim[2], u.scale[0], u.scale[1], u.scale[2]), nil
}

// terms reads the space-separated terms of one side of the "/", giving
// each dimension the sign of that side.
func (u *units) terms(side string, sign int) error {
	words := strings.Fields(side)
	for len(words) > 0 {
		term := words[0]
		words = words[1:]
		// "count x 10^3" spans three words.
		if strings.HasPrefix(term, "count") && len(words) >= 2 && words[0] == "x" {
			term += " x " + words[1]
			words = words[2:]
		}
		if err := u.term(term, sign); err != nil {
			return err
		}
	}
	return nil
}

// term reads one term: "Kbyte", "sec^2", "count", "count x 10^3".
func (u *units) term(term string, sign int) error {
	if rest, ok := strings.CutPrefix(term, "count"); ok {
		return u.count(rest, sign)
	}
	base, power, err := powerOf(term)
	if err != nil {
		return err
	}
	if i := slices.Index(spaceWords, base); i >= 0 {
		return u.set(0, sign*power, i)
	}
	if i := slices.Index(timeWords, base); i >= 0 {
		return u.set(1, sign*power, i)
	}
	if v, ok := strings.CutPrefix(base, "space-"); ok {
		return u.setWord(0, sign*power, v)
	}
	if v, ok := strings.CutPrefix(base, "time-"); ok {
		return u.setWord(1, sign*power, v)
	}
	return fmt.Errorf("unknown unit %q", term)
}

// count reads what follows "count": "", "^2", " x 10", " x 10^3", " x 10^3^2".
// pmUnitsStr prints scale 1 power 2 and scale 2 power 1 alike ("x 10^2");
// this reads the latter, the only one a PMDA is likely to declare.
func (u *units) count(rest string, sign int) error {
	scale := 0
	if tens, ok := strings.CutPrefix(rest, " x 10"); ok {
		scale, rest = 1, ""
		if parts := strings.Split(tens, "^"); len(parts) > 1 {
			v, err := strconv.Atoi(parts[1])
			if err != nil || parts[0] != "" || len(parts) > 3 {
				return fmt.Errorf("count scale %q", tens)
			}
			scale = v
			if len(parts) == 3 {
				rest = "^" + parts[2]
			}
		}
	}
	base, power, err := powerOf(rest)
	if err != nil {
		return err
	}
	if base != "" {
		return fmt.Errorf("unknown unit %q", "count"+rest)
	}
	return u.set(2, sign*power, scale)
}

// set records one dimension, once.
func (u *units) set(i, dim, scale int) error {
	if u.seen[i] {
		return fmt.Errorf("dimension %d given twice", i)
	}
	if dim < -8 || dim > 7 || scale < -8 || scale > 15 {
		return fmt.Errorf("dimension %d or scale %d out of range", dim, scale)
	}
	u.seen[i], u.dim[i], u.scale[i] = true, dim, scale
	return nil
}

// setWord records a dimension whose scale pmUnitsStr printed as a number.
func (u *units) setWord(i, dim int, scale string) error {
	v, err := strconv.Atoi(scale)
	if err != nil {
		return fmt.Errorf("scale %q: %w", scale, err)
	}
	return u.set(i, dim, v)
}

// powerOf splits "sec^2" into "sec" and 2; a term without "^" has power 1.
func powerOf(term string) (string, int, error) {
	base, p, ok := strings.Cut(term, "^")
	if !ok {
		return base, 1, nil
	}
	v, err := strconv.Atoi(p)
	if err != nil || v < 1 {
		return "", 0, fmt.Errorf("power %q", term)
	}
	return base, v, nil
}

// tenPower reads "10" or "10^N" as N.
func tenPower(s string) (int, error) {
	if s == "10" {
		return 1, nil
	}
	p, ok := strings.CutPrefix(s, "10^")
	v, err := strconv.Atoi(p)
	if !ok || err != nil {
		return 0, fmt.Errorf("count scale %q", s)
	}
	return v, nil
}
