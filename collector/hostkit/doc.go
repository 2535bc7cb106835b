// Package hostkit holds what the host's collectors share, whatever package
// they are in: the /proc root check, the paced refreshes and pmdalinux's
// instance-domain labels. It imports no collector.
package hostkit
