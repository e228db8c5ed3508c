import type { NewUser } from '../modules/users/repo';

export type DemoAccount = Omit<NewUser, 'passwordHash'> & {
  password: string;
  /** A rejected account's reason, recorded as the demo admin's decision (the student sees it). */
  rejectionReason?: string;
};

/**
 * Demo accounts for a first look around, one per side of the access policy: Alex (verified) can do
 * everything, Priya (waiting for review) and Sam (rejected, with the admin's reason) can read but not post,
 * and the admin reviews. Their passwords are public: never seed a real deployment.
 */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: 'admin@campustalk.test',
    password: 'admin-demo-123',
    firstName: 'Ada',
    lastName: 'Admin',
    phoneNumber: '',
    role: 'admin',
    documentStatus: 'not_required',
  },
  {
    email: 'alex@campustalk.test',
    password: 'student-demo-123',
    firstName: 'Alex',
    lastName: 'Rivera',
    phoneNumber: '',
    role: 'user',
    documentStatus: 'verified',
    course: 'Computer Science',
    year: 2,
    college: 'Indian Institute of Technology Bombay',
    bio: 'Coffee, code and chess.',
  },
  {
    email: 'priya@campustalk.test',
    password: 'student-demo-123',
    firstName: 'Priya',
    lastName: 'Sharma',
    phoneNumber: '',
    role: 'user',
    documentStatus: 'pending_verification',
    course: 'Economics',
    year: 3,
    college: 'University of Delhi',
  },
  {
    email: 'sam@campustalk.test',
    password: 'student-demo-123',
    firstName: 'Sam',
    lastName: 'Lee',
    phoneNumber: '',
    role: 'user',
    documentStatus: 'rejected',
    rejectionReason: 'The photo of your student ID is too blurry to read. Please upload a sharper one.',
  },
];
