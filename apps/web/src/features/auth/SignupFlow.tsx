import { useState } from 'react';
import type { SignupInput } from './auth-api';
import { OtpForm } from './OtpForm';
import { SignupForm } from './SignupForm';

/** Signup: the form, then (once the code has been sent) the code stage, with a way back to fix the e-mail. */
export function SignupFlow() {
  const [values, setValues] = useState<SignupInput>({ fullName: '', email: '', password: '' });
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  if (sentMessage !== null) {
    return <OtpForm values={values} sentMessage={sentMessage} onBack={() => setSentMessage(null)} />;
  }
  return <SignupForm values={values} onChange={setValues} onCodeSent={setSentMessage} />;
}
