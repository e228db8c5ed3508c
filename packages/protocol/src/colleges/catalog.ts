import { z } from 'zod';

/**
 * The college picker's countries (spec 000, section 2), in the picker's order: India first and the default.
 * `GET /colleges/{code}.json` serves each one's list; India is served per state (`/colleges/IN-{state}.json`).
 */
export const COLLEGE_COUNTRIES = [
  { code: 'IN', name: 'India' },
  { code: 'ID', name: 'Indonesia' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'US', name: 'United States' },
  { code: 'CA', name: 'Canada' },
  { code: 'AU', name: 'Australia' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
  { code: 'SG', name: 'Singapore' },
  { code: 'MY', name: 'Malaysia' },
] as const;
export type CollegeCountryCode = (typeof COLLEGE_COUNTRIES)[number]['code'];
export const COLLEGE_COUNTRY_CODES = COLLEGE_COUNTRIES.map((c) => c.code) as readonly CollegeCountryCode[];
export const DEFAULT_COLLEGE_COUNTRY: CollegeCountryCode = 'IN';

/**
 * India's 28 states and 8 union territories with their ISO 3166-2:IN codes (the part after `IN-`), as
 * ISO has them since its 2023 update (CG, OD, TS, UK; DH for the merged Dadra and Nagar Haveli and Daman
 * and Diu; LA for Ladakh). The picker asks for one of them before searching.
 */
export const INDIA_STATES = [
  { code: 'AN', name: 'Andaman and Nicobar Islands' },
  { code: 'AP', name: 'Andhra Pradesh' },
  { code: 'AR', name: 'Arunachal Pradesh' },
  { code: 'AS', name: 'Assam' },
  { code: 'BR', name: 'Bihar' },
  { code: 'CH', name: 'Chandigarh' },
  { code: 'CG', name: 'Chhattisgarh' },
  { code: 'DH', name: 'Dadra and Nagar Haveli and Daman and Diu' },
  { code: 'DL', name: 'Delhi' },
  { code: 'GA', name: 'Goa' },
  { code: 'GJ', name: 'Gujarat' },
  { code: 'HR', name: 'Haryana' },
  { code: 'HP', name: 'Himachal Pradesh' },
  { code: 'JK', name: 'Jammu and Kashmir' },
  { code: 'JH', name: 'Jharkhand' },
  { code: 'KA', name: 'Karnataka' },
  { code: 'KL', name: 'Kerala' },
  { code: 'LA', name: 'Ladakh' },
  { code: 'LD', name: 'Lakshadweep' },
  { code: 'MP', name: 'Madhya Pradesh' },
  { code: 'MH', name: 'Maharashtra' },
  { code: 'MN', name: 'Manipur' },
  { code: 'ML', name: 'Meghalaya' },
  { code: 'MZ', name: 'Mizoram' },
  { code: 'NL', name: 'Nagaland' },
  { code: 'OD', name: 'Odisha' },
  { code: 'PY', name: 'Puducherry' },
  { code: 'PB', name: 'Punjab' },
  { code: 'RJ', name: 'Rajasthan' },
  { code: 'SK', name: 'Sikkim' },
  { code: 'TN', name: 'Tamil Nadu' },
  { code: 'TS', name: 'Telangana' },
  { code: 'TR', name: 'Tripura' },
  { code: 'UP', name: 'Uttar Pradesh' },
  { code: 'UK', name: 'Uttarakhand' },
  { code: 'WB', name: 'West Bengal' },
] as const;
export type IndiaStateCode = (typeof INDIA_STATES)[number]['code'];
export const INDIA_STATE_CODES = INDIA_STATES.map((s) => s.code) as readonly IndiaStateCode[];

export function isCollegeCountry(code: string): code is CollegeCountryCode {
  return (COLLEGE_COUNTRY_CODES as readonly string[]).includes(code);
}
export function indiaStateName(code: string): string | undefined {
  return INDIA_STATES.find((s) => s.code === code)?.name;
}

/** The path of a picker list: `/colleges/US.json`, or for India `/colleges/IN-MH.json`. */
export function collegeListPath(country: CollegeCountryCode, stateCode?: IndiaStateCode): string {
  return country === 'IN' && stateCode ? `/colleges/IN-${stateCode}.json` : `/colleges/${country}.json`;
}

/**
 * One entry of a picker list (spec 000, section 3, College option), as `/colleges/….json` serves it, sorted
 * by name. `city` and `stateName` are '' when the source does not say; the optional fields are those of the
 * User's college object.
 */
export const collegeOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  country: z.string(),
  city: z.string(),
  stateName: z.string(),
  aliases: z.array(z.string()).optional(),
  acronyms: z.array(z.string()).optional(),
  types: z.array(z.string()).optional(),
});
export type CollegeOption = z.infer<typeof collegeOptionSchema>;
export const collegeListSchema = z.array(collegeOptionSchema);

export const COLLEGE_MSG = {
  /** The picker's prompt for India, and the 400 of `/colleges/IN.json` (India is served per state). */
  selectState: 'Please select a state to search colleges...',
  noneFound: 'No colleges found.',
  unknownList: 'No such college list.',
  manualNameRequired: 'College name is required.',
} as const;

/** Suggestions shown by the picker at most (spec 000, section 9). */
export const COLLEGE_SUGGESTIONS_MAX = 10;
