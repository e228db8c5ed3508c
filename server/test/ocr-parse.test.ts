import { describe, expect, it } from 'vitest';
import { cleanId, displayCase, parseIdCardText } from '../src/lib/ocr/parse';

describe('parseIdCardText: Indonesian KTM layouts', () => {
  it('reads a clean KTM, preferring Program Studi over Fakultas', () => {
    const text = `UNIVERSITAS INDONESIA
Depok, Jawa Barat
KARTU TANDA MAHASISWA
Nama : Siti Kurniawan
NIM : 20235823
Fakultas : Kedokteran
Program Studi : Pendidikan Dokter
Berlaku s/d 31-08-2025`;
    expect(parseIdCardText(text)).toEqual({
      nama: 'Siti Kurniawan',
      nim: '20235823',
      kampus: 'Universitas Indonesia',
      jurusan: 'Pendidikan Dokter',
    });
  });

  it('tolerates the noise of a photo beside the labels (real recognizer output)', () => {
    const text = `UNIVERSITAS INDONESIA
Depok, Jawa Barat

KARTU TANDA MAHASISWA
Cane
BEES Nama : Siti Kurniawan
SA pr
® NIM : 20235823
BE Fakultas : Kedokteran
| Prodi : Pendidikan Dokter
`;
    expect(parseIdCardText(text)).toEqual({
      nama: 'Siti Kurniawan',
      nim: '20235823',
      kampus: 'Universitas Indonesia',
      jurusan: 'Pendidikan Dokter',
    });
  });

  it('reads misread labels, other separators and a value on the next line', () => {
    const text = `POLITEKNIK NEGERI JAKARTA
Narna . Ahmad Nugroho
NlM; 1207544 1142
No. Mahasiswa
Fakultas = Hukum
Jurusan
Ilmu Hukum`;
    const result = parseIdCardText(text);
    expect(result).toEqual({
      nama: 'Ahmad Nugroho',
      nim: '12075441142',
      kampus: 'Politeknik Negeri Jakarta',
      jurusan: 'Ilmu Hukum',
    });
  });

  it('prefers Jurusan over Fakultas whatever their order, and Program Studi over Jurusan', () => {
    expect(parseIdCardText('Jurusan : Teknik Elektro\nFakultas : Teknik').jurusan).toBe('Teknik Elektro');
    expect(
      parseIdCardText('Fakultas: Teknik\nJurusan: Teknik Elektro\nProdi: Teknik Tenaga Listrik').jurusan,
    ).toBe('Teknik Tenaga Listrik');
    expect(parseIdCardText('Fakultas : Ekonomi').jurusan).toBe('Ekonomi');
  });

  it('takes the institution from Institut, Sekolah Tinggi, or a Kampus label', () => {
    expect(parseIdCardText('INSTITUT TEKNOLOGI BANDUNG\nNama: Budi').kampus).toBe(
      'Institut Teknologi Bandung',
    );
    expect(parseIdCardText('KARTU MAHASISWA\nSekolah Tinggi Ilmu Ekonomi Indonesia').kampus).toBe(
      'Sekolah Tinggi Ilmu Ekonomi Indonesia',
    );
    expect(parseIdCardText('Kampus : Universitas Brawijaya\nNIM: 1234567').kampus).toBe(
      'Universitas Brawijaya',
    );
  });

  it("skips a parent's name", () => {
    const text = 'Nama Ayah : Slamet Riyadi\nNama : Dewi Lestari';
    expect(parseIdCardText(text).nama).toBe('Dewi Lestari');
  });

  it('reads two columns merged into one line', () => {
    const result = parseIdCardText('NIM : 2106123456 Fakultas : Teknik');
    expect(result.nim).toBe('2106123456');
    expect(result.jurusan).toBe('Teknik');
  });

  it('keeps slashes of structured numbers (NIM 19/443567/TK/49071)', () => {
    expect(parseIdCardText('NIM : 19/443567/TK/49071').nim).toBe('19/443567/TK/49071');
  });
});

describe('parseIdCardText: English layouts', () => {
  it('reads a clean card, preferring Department over Course', () => {
    const text = `LOYOLA COLLEGE
Nungambakkam, Chennai
STUDENT IDENTITY CARD
Name : Karthik Banerjee
Roll No : 95EC26504
Course : M.Tech
Department : Civil Engineering
Valid till: 30/06/2026`;
    expect(parseIdCardText(text)).toEqual({
      nama: 'Karthik Banerjee',
      nim: '95EC26504',
      kampus: 'Loyola College',
      jurusan: 'Civil Engineering',
    });
  });

  it('reads labels run together and junk around them (real recognizer output)', () => {
    const text = `ONAL INSTITUTE OF TECHNOLOGY KARNAT
Surathkal, Mangalore
STUDENT IDENTITY CARD
RE Re SR BA
ens Name : Priya Singh
= 7
oe] | RollNo : 2020391254
PRA Ems
ies iter Department : Mechanical Engineering
& “|
= Course : B.Tech`;
    const result = parseIdCardText(text);
    expect(result.nama).toBe('Priya Singh');
    expect(result.nim).toBe('2020391254');
    expect(result.jurusan).toBe('Mechanical Engineering');
  });

  it('reads Student ID, ID No, Branch and a University label', () => {
    const text = `Student Name: Ananya Iyer
Student ID No.: 21BCE1234
Branch: Computer Science
University: Anna University`;
    expect(parseIdCardText(text)).toEqual({
      nama: 'Ananya Iyer',
      nim: '21BCE1234',
      kampus: 'Anna University',
      jurusan: 'Computer Science',
    });
    expect(parseIdCardText('ID N0 : 2O21004512').nim).toBe('2021004512');
  });

  it("skips the father's name and a 'Department of' heading", () => {
    const text = `JADAVPUR UNIVERSITY
Department of Physics
Father's Name : Subrata Banerjee
Name : Meera Banerjee
Course : B.Sc`;
    const result = parseIdCardText(text);
    expect(result.nama).toBe('Meera Banerjee');
    expect(result.jurusan).toBe('B.Sc');
    expect(result.kampus).toBe('Jadavpur University');
  });

  it('does not take the card title for a student ID', () => {
    expect(parseIdCardText('STUDENT ID CARD\nName: Rahul Gupta').nim).toBe('');
  });
});

describe('parseIdCardText: what is missing stays empty', () => {
  it('answers empty fields for unrelated text', () => {
    expect(parseIdCardText('Hello world\nThis is not a card')).toEqual({
      nama: '',
      nim: '',
      kampus: '',
      jurusan: '',
    });
    expect(parseIdCardText('')).toEqual({ nama: '', nim: '', kampus: '', jurusan: '' });
  });

  it('falls back to the one long number when the NIM label is unreadable', () => {
    expect(parseIdCardText('Nama : Budi\nMlN 21061234567\nTelp. 0217867222').nim).toBe('21061234567');
    // Two candidates: no guess.
    expect(parseIdCardText('x 21061234567\ny 21069999999').nim).toBe('');
  });

  it('bounds the fields to the schema lengths', () => {
    const result = parseIdCardText(`Nama : ${'A'.repeat(500)}`);
    expect(result.nama.length).toBeLessThanOrEqual(200);
  });
});

describe('helpers', () => {
  it('cleanId joins split groups and reads look-alikes between digits', () => {
    expect(cleanId('2106 123456 valid')).toBe('2106123456');
    expect(cleanId('21O6l23456')).toBe('2106123456');
    expect(cleanId('21BCE1234.')).toBe('21BCE1234');
    expect(cleanId('no digits')).toBe('');
  });

  it('displayCase title-cases headings and keeps acronyms', () => {
    expect(displayCase('UNIVERSITY OF MUMBAI')).toBe('University of Mumbai');
    expect(displayCase('INSTITUT TEKNOLOGI SEPULUH NOPEMBER (ITS)')).toBe(
      'Institut Teknologi Sepuluh Nopember (ITS)',
    );
    expect(displayCase('Universitas Indonesia')).toBe('Universitas Indonesia');
  });
});

describe('parseIdCardText: a lost label', () => {
  it('takes the unlabelled value just above the number as the name (real recognizer output)', () => {
    const text = `UNIVERSITAS DIPONEGORO
Tembalang, Semarang
NDA MAHASISWA

: Agus Handayani
NIM : 2403671967
Fakultas : Ilmu Sosial dan Ilmu Politik
Prodi : Hubungan Internasional`;
    expect(parseIdCardText(text).nama).toBe('Agus Handayani');
    // A date or number there is no name.
    expect(parseIdCardText(': 12-01-2001\nNIM : 2403671967').nama).toBe('');
  });
});

describe('parseIdCardText: misreads seen on generated cards', () => {
  it("takes a ':' read as a lone 1 for the separator", () => {
    expect(parseIdCardText('Name : Arjun Nair\nID No 1 22BCE6511\nDepartment : Physics').nim).toBe(
      '22BCE6511',
    );
    expect(parseIdCardText('NIM | 2106123456').nim).toBe('2106123456');
    // Glued to the number it may be a digit: kept.
    expect(parseIdCardText('NIM 12106123456').nim).toBe('12106123456');
  });

  it('reads a capital I misread as l at the start of a name word', () => {
    expect(parseIdCardText('Name : Sneha lyer').nama).toBe('Sneha Iyer');
    expect(parseIdCardText('Nama : Siti binti Ahmad').nama).toBe('Siti binti Ahmad');
  });
});
