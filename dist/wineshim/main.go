// Command wineshim writes bcryptprimitives.dll for a Wine prefix.
//
// Go (1.22 and later) needs ProcessPrng from bcryptprimitives.dll on
// Windows; Wine 8.0 (Debian 12's wine64) has no such DLL, so every Go
// program dies at start ("bcryptprimitives.dll not found"). This writes a
// PE32+ DLL holding nothing but an export table whose ProcessPrng forwards
// to advapi32.SystemFunction036 (RtlGenRandom, which Wine has): same
// arguments in the same registers, and a non-zero low byte on success,
// which is all the Go runtime looks at. It is a test fixture for running
// cairn.exe under Wine here; it is never shipped.
//
// Usage: go run ./dist/wineshim PREFIX/drive_c/windows/system32/bcryptprimitives.dll
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
)

const (
	fileAlign = 0x200
	sectAlign = 0x1000
	sectRVA   = 0x1000
	imageBase = 0x6ff00000
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wineshim OUT.dll")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], build(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wineshim:", err)
		os.Exit(1)
	}
}

// exportSection lays out the export directory at sectRVA and returns the
// section's bytes.
func exportSection() []byte {
	const (
		dirSize   = 40
		eatOff    = dirSize
		namesOff  = eatOff + 4
		ordOff    = namesOff + 4
		stringOff = ordOff + 4 // 2 bytes of ordinal, 2 of padding
	)
	var strs bytes.Buffer
	str := func(s string) uint32 {
		off := uint32(stringOff + strs.Len())
		strs.WriteString(s)
		strs.WriteByte(0)
		return sectRVA + off
	}
	dllName := str("bcryptprimitives.dll")
	funcName := str("ProcessPrng")
	forward := str("advapi32.SystemFunction036")

	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	le(uint32(0))                // Characteristics
	le(uint32(0))                // TimeDateStamp
	le(uint16(0))                // MajorVersion
	le(uint16(0))                // MinorVersion
	le(dllName)                  // Name
	le(uint32(1))                // Base
	le(uint32(1))                // NumberOfFunctions
	le(uint32(1))                // NumberOfNames
	le(uint32(sectRVA + eatOff)) // AddressOfFunctions
	le(uint32(sectRVA + namesOff))
	le(uint32(sectRVA + ordOff))
	le(forward)   // the one function: a forwarder string inside the directory
	le(funcName)  // its name
	le(uint16(0)) // its ordinal (minus Base)
	le(uint16(0))
	b.Write(strs.Bytes())
	return b.Bytes()
}

func build() []byte {
	sect := exportSection()
	rawSize := (len(sect) + fileAlign - 1) / fileAlign * fileAlign
	virtSize := (len(sect) + sectAlign - 1) / sectAlign * sectAlign

	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	// DOS header: "MZ", e_lfanew at 0x3c.
	dos := make([]byte, 0x40)
	copy(dos, "MZ")
	binary.LittleEndian.PutUint32(dos[0x3c:], 0x40)
	b.Write(dos)
	b.WriteString("PE\x00\x00")
	// COFF header.
	le(uint16(0x8664)) // AMD64
	le(uint16(1))      // sections
	le(uint32(0))      // TimeDateStamp
	le(uint32(0))      // PointerToSymbolTable
	le(uint32(0))      // NumberOfSymbols
	le(uint16(240))    // SizeOfOptionalHeader (PE32+)
	le(uint16(0x2022)) // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE | DLL
	// Optional header, PE32+.
	le(uint16(0x20b))
	le(uint8(1)) // linker version
	le(uint8(0))
	le(uint32(0))                  // SizeOfCode
	le(uint32(rawSize))            // SizeOfInitializedData
	le(uint32(0))                  // SizeOfUninitializedData
	le(uint32(0))                  // AddressOfEntryPoint: no DllMain
	le(uint32(0))                  // BaseOfCode
	le(uint64(imageBase))          // ImageBase
	le(uint32(sectAlign))          // SectionAlignment
	le(uint32(fileAlign))          // FileAlignment
	le(uint16(6))                  // MajorOperatingSystemVersion
	le(uint16(0))                  //
	le(uint16(0))                  // image version
	le(uint16(0))                  //
	le(uint16(6))                  // MajorSubsystemVersion
	le(uint16(0))                  //
	le(uint32(0))                  // Win32VersionValue
	le(uint32(sectRVA + virtSize)) // SizeOfImage
	le(uint32(fileAlign))          // SizeOfHeaders
	le(uint32(0))                  // CheckSum
	le(uint16(3))                  // Subsystem: console
	le(uint16(0x0100))             // DllCharacteristics: NX_COMPAT
	le(uint64(0x100000))           // SizeOfStackReserve
	le(uint64(0x1000))             // SizeOfStackCommit
	le(uint64(0x100000))           // SizeOfHeapReserve
	le(uint64(0x1000))             // SizeOfHeapCommit
	le(uint32(0))                  // LoaderFlags
	le(uint32(16))                 // NumberOfRvaAndSizes
	le(uint32(sectRVA))            // export directory
	le(uint32(len(sect)))
	for i := 1; i < 16; i++ {
		le(uint64(0))
	}
	// Section header.
	name := [8]byte{'.', 'e', 'd', 'a', 't', 'a'}
	b.Write(name[:])
	le(uint32(len(sect)))  // VirtualSize
	le(uint32(sectRVA))    // VirtualAddress
	le(uint32(rawSize))    // SizeOfRawData
	le(uint32(fileAlign))  // PointerToRawData
	le(uint32(0))          // PointerToRelocations
	le(uint32(0))          // PointerToLinenumbers
	le(uint16(0))          // NumberOfRelocations
	le(uint16(0))          // NumberOfLinenumbers
	le(uint32(0x40000040)) // INITIALIZED_DATA | MEM_READ
	out := make([]byte, fileAlign+rawSize)
	copy(out, b.Bytes())
	copy(out[fileAlign:], sect)
	return out
}
