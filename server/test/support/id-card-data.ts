import type { OcrResult } from '@campus/protocol';

/** What the generated student-ID cards say (id-cards.ts draws them): names, numbers, campuses, majors. */

/** mulberry32: a tiny seeded PRNG, enough for test variety. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: () => number, items: readonly T[]): T =>
  items[Math.floor(rand() * items.length)]!;
const digits = (rand: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(rand() * 10)).join('');

const ID_FIRST = [
  'Budi',
  'Siti',
  'Ahmad',
  'Dewi',
  'Rizky',
  'Putri',
  'Agus',
  'Nur',
  'Fajar',
  'Indah',
  'Yusuf',
  'Ayu',
];
const ID_LAST = [
  'Santoso',
  'Rahmawati',
  'Hidayat',
  'Lestari',
  'Pratama',
  'Wulandari',
  'Saputra',
  'Kurniawan',
  'Nugroho',
  'Handayani',
];
const IN_FIRST = [
  'Aarav',
  'Priya',
  'Rahul',
  'Ananya',
  'Vikram',
  'Sneha',
  'Arjun',
  'Kavya',
  'Rohan',
  'Meera',
  'Karthik',
  'Divya',
];
const IN_LAST = [
  'Sharma',
  'Iyer',
  'Patel',
  'Reddy',
  'Nair',
  'Gupta',
  'Menon',
  'Banerjee',
  'Kulkarni',
  'Singh',
  'Chatterjee',
];

const KTM_CAMPUSES = [
  { name: 'Universitas Indonesia', city: 'Depok, Jawa Barat' },
  { name: 'Institut Teknologi Bandung', city: 'Jl. Ganesa No. 10, Bandung' },
  { name: 'Universitas Gadjah Mada', city: 'Bulaksumur, Yogyakarta' },
  { name: 'Universitas Airlangga', city: 'Surabaya, Jawa Timur' },
  { name: 'Politeknik Negeri Jakarta', city: 'Jl. Prof. G.A. Siwabessy, Depok' },
  { name: 'Institut Pertanian Bogor', city: 'Kampus Dramaga, Bogor' },
  { name: 'Universitas Brawijaya', city: 'Jl. Veteran, Malang' },
  { name: 'Sekolah Tinggi Ilmu Ekonomi Indonesia', city: 'Jakarta Timur' },
  { name: 'Universitas Diponegoro', city: 'Tembalang, Semarang' },
];
const KTM_MAJORS = [
  { fakultas: 'Teknik', prodi: 'Teknik Informatika' },
  { fakultas: 'Ilmu Komputer', prodi: 'Sistem Informasi' },
  { fakultas: 'Ekonomi dan Bisnis', prodi: 'Akuntansi' },
  { fakultas: 'Kedokteran', prodi: 'Pendidikan Dokter' },
  { fakultas: 'Hukum', prodi: 'Ilmu Hukum' },
  { fakultas: 'Matematika dan Ilmu Pengetahuan Alam', prodi: 'Statistika' },
  { fakultas: 'Teknik', prodi: 'Teknik Sipil' },
  { fakultas: 'Ilmu Sosial dan Ilmu Politik', prodi: 'Hubungan Internasional' },
];
const EN_CAMPUSES = [
  { name: 'University of Delhi', city: 'New Delhi 110007' },
  { name: 'Vellore Institute of Technology', city: 'Vellore, Tamil Nadu' },
  { name: 'Jadavpur University', city: 'Kolkata 700032' },
  { name: 'Anna University', city: 'Guindy, Chennai' },
  { name: 'University of Mumbai', city: 'Fort, Mumbai 400032' },
  { name: 'Loyola College', city: 'Nungambakkam, Chennai' },
  { name: 'National Institute of Technology Karnataka', city: 'Surathkal, Mangalore' },
  { name: 'Amity University', city: 'Noida, Uttar Pradesh' },
  { name: 'Presidency College', city: 'Bengaluru, Karnataka' },
];
const EN_MAJORS = [
  { department: 'Computer Science and Engineering', course: 'B.Tech' },
  { department: 'Electronics and Communication', course: 'B.E.' },
  { department: 'Mechanical Engineering', course: 'B.Tech' },
  { department: 'Economics', course: 'B.A. (Hons)' },
  { department: 'Commerce', course: 'B.Com' },
  { department: 'Physics', course: 'B.Sc' },
  { department: 'Business Administration', course: 'BBA' },
  { department: 'Civil Engineering', course: 'M.Tech' },
];

export interface CardText {
  fields: OcrResult;
  title: string;
  campusLine: string;
  subLine: string;
  rows: [label: string, value: string][];
  footer: string;
}

export function ktmText(rand: () => number, given: Partial<OcrResult>): CardText {
  const campus = pick(rand, KTM_CAMPUSES);
  const major = pick(rand, KTM_MAJORS);
  const year = 18 + Math.floor(rand() * 7);
  const fields: OcrResult = {
    nama: given.nama ?? `${pick(rand, ID_FIRST)} ${pick(rand, ID_LAST)}`,
    nim:
      given.nim ??
      pick(rand, [`${year}0${digits(rand, 7)}`, `${year}${digits(rand, 6)}`, `1${year}${digits(rand, 8)}`]),
    kampus: given.kampus ?? campus.name,
    jurusan: given.jurusan ?? major.prodi,
  };
  const majorLabel = pick(rand, ['Program Studi', 'Jurusan', 'Prodi']);
  const nimLabel = pick(rand, ['NIM', 'NIM', 'No. Mahasiswa']);
  return {
    fields,
    title: 'KARTU TANDA MAHASISWA',
    campusLine: fields.kampus.toUpperCase(),
    subLine: campus.city,
    rows: [
      ['Nama', fields.nama],
      [nimLabel, fields.nim],
      ['Fakultas', major.fakultas],
      [majorLabel, fields.jurusan],
    ],
    footer: `Berlaku s/d 31-08-20${year + 5}`,
  };
}

export function englishText(rand: () => number, given: Partial<OcrResult>): CardText {
  const campus = pick(rand, EN_CAMPUSES);
  const major = pick(rand, EN_MAJORS);
  const year = 19 + Math.floor(rand() * 6);
  const fields: OcrResult = {
    nama: given.nama ?? `${pick(rand, IN_FIRST)} ${pick(rand, IN_LAST)}`,
    nim:
      given.nim ??
      pick(rand, [
        `${year}BCE${digits(rand, 4)}`,
        `20${year}${digits(rand, 6)}`,
        `${digits(rand, 2)}${pick(rand, ['CS', 'EC', 'ME'])}${digits(rand, 5)}`,
      ]),
    kampus: given.kampus ?? campus.name,
    jurusan: given.jurusan ?? major.department,
  };
  const idLabel = pick(rand, ['Student ID', 'Roll No', 'ID No']);
  return {
    fields,
    title: 'STUDENT IDENTITY CARD',
    campusLine: fields.kampus.toUpperCase(),
    subLine: campus.city,
    rows: [
      ['Name', fields.nama],
      [idLabel, fields.nim],
      ['Department', fields.jurusan],
      ['Course', major.course],
    ],
    footer: `Valid till: 30/06/20${year + 4}`,
  };
}
