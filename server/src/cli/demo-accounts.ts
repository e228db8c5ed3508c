import type { NewUser } from '../modules/users/repo';

/** Demo accounts for a first look around. Their passwords are public: never seed a real deployment. */
export const DEMO_ACCOUNTS: (Omit<NewUser, 'passwordHash'> & { password: string })[] = [
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
  },
];
