package kernel

import "encoding/binary"

// Logins as utmp(5) records them: fixed-size records of struct utmp.
// glibc's layout on every 64-bit Linux ABI it supports (and on x86-64
// with its 32-bit time fields): 384 bytes a record, ut_type a 16-bit
// integer at offset 0, ut_user 32 bytes at offset 44.
const (
	utmpRecord      = 384
	utmpTypeOffset  = 0
	utmpUserOffset  = 44
	utmpUserLen     = 32
	utmpUserProcess = 7 // USER_PROCESS: a user's login session
)

// Logins are pmdalinux's login counts: user sessions (records of a named
// user's login), those of root, and every record (login records of any
// kind: boot time, run level, terminals waiting for a login) but a user
// session without a user name, which pmdalinux passes over.
type Logins struct{ Users, Roots, Sessions uint64 }

// ParseUtmp counts the records of a utmp file. A short record at the end
// (the file being written) is not counted.
func ParseUtmp(data []byte) Logins {
	var l Logins
	for ; len(data) >= utmpRecord; data = data[utmpRecord:] {
		if binary.NativeEndian.Uint16(data[utmpTypeOffset:]) != utmpUserProcess {
			l.Sessions++
			continue
		}
		user := data[utmpUserOffset : utmpUserOffset+utmpUserLen]
		if user[0] == 0 {
			continue // a login record without a user counts as nothing
		}
		if string(user[:5]) == "root\x00" {
			l.Roots++
		}
		l.Users++
		l.Sessions++
	}
	return l
}
