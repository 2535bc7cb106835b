// Package archive writes PCP archives, format version 2 as pcp-archive(5)
// describes it, without libpcp: the log label that heads all three files,
// the .meta records (metric descriptors with their names, timestamped
// instance domains, label sets and help text, as pmlogger writes them),
// .0, .1, ... volumes of pmResult records, and the temporal .index.
//
// Every record is framed by its length before and after and encoded
// big-endian. The package knows the format only: what to write, and when,
// is the caller's.
package archive
