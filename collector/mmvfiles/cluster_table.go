package mmvfiles

import "fmt"

// mmvClusterTable hands the MMV clusters to files, by offset from
// clusterMMVFirst. A file's cluster is part of its metrics' PMIDs, so
// it is kept as stable as it can be: while the agent runs a name gets
// back the cluster it last held if that is free; else the cluster the
// file asks for (its MMV cluster number, as pmdammv uses it), so PMIDs
// are the same across restarts of the agent; else the lowest that no
// name has held, else the lowest free.
type mmvClusterTable struct {
	held [mmvClusters]string // the file in use at each cluster, "" if free
	last [mmvClusters]string // the file that last held each cluster
}

// assign gives name a cluster; asked is the file's own cluster number (0
// asks for none). The note, when not empty, says the cluster asked for
// is another file's.
func (t *mmvClusterTable) assign(name string, asked uint32) (cluster uint32, note string) {
	i, ok := t.remembered(name)
	if !ok && asked > 0 && asked < mmvClusters {
		if t.held[asked] == "" {
			i, ok = int(asked), true
		} else {
			note = fmt.Sprintf("asks for cluster %d (%d here), which file %s holds", asked,
				clusterMMVFirst+asked, t.held[asked])
		}
	}
	if !ok {
		i = t.lowestFree()
	}
	t.held[i], t.last[i] = name, name
	cluster = clusterMMVFirst + uint32(i)
	if note != "" {
		note += fmt.Sprintf("; given %d", cluster)
	}
	return cluster, note
}

// remembered is the free cluster name held last.
func (t *mmvClusterTable) remembered(name string) (int, bool) {
	for i := range t.last {
		if t.last[i] == name && t.held[i] == "" {
			return i, true
		}
	}
	return 0, false
}

// lowestFree prefers a cluster no file has held, so a file that returns
// finds its own. The caller keeps fewer files in use than clusters.
func (t *mmvClusterTable) lowestFree() int {
	free := -1
	for i := range t.held {
		if t.held[i] != "" {
			continue
		}
		if t.last[i] == "" {
			return i
		}
		if free < 0 {
			free = i
		}
	}
	return free
}

// release frees a cluster, remembering who held it.
func (t *mmvClusterTable) release(cluster uint32) {
	t.held[cluster-clusterMMVFirst] = ""
}
