import type { CollegeOption } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import type { Transactor } from '../../realtime/transaction';
import { collegeForEmailDomain, collegesForDomains, type College } from '../colleges';

/** The domain part of an address, lower case, without a trailing dot. */
export function emailDomain(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
}

/**
 * At sign-up: the address's domain when it belongs to a known college (users.academic_domain, shown to
 * admins beside the document), else null. A catalog that fails to load never stops a sign-up.
 */
export async function academicDomainOf(
  transactor: Transactor,
  email: string,
  log: Logger,
): Promise<string | null> {
  try {
    return (await collegeForEmailDomain(transactor, email)) ? emailDomain(email) : null;
  } catch (error) {
    log.error({ err: error }, 'academic domain lookup failed');
    return null;
  }
}

export function toCollegeOption(college: College): CollegeOption {
  return {
    id: college.id,
    name: college.name,
    country: college.country,
    city: college.city ?? '',
    stateName: college.stateName ?? '',
    ...(college.aliases.length ? { aliases: college.aliases } : {}),
  };
}

/** The college of the student's sign-up address, suggested in the profile editor. */
export async function collegeSuggestion(
  transactor: Transactor,
  email: string,
): Promise<CollegeOption | null> {
  const college = await collegeForEmailDomain(transactor, email);
  return college && college.status === 'listed' ? toCollegeOption(college) : null;
}

/** The college names of a page's academic domains, in a few statements (not one per domain). */
export async function collegesOfDomains(
  transactor: Transactor,
  domains: Iterable<string>,
): Promise<Map<string, string | null>> {
  const colleges = await collegesForDomains(transactor, domains);
  return new Map([...colleges].map(([domain, college]) => [domain, college?.name ?? null]));
}
