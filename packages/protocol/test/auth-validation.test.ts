import { describe, expect, it } from 'vitest';
import {
  MSG,
  loginBody,
  resetPasswordBody,
  signupBody,
  splitName,
  validateForgotRequest,
  validateLogin,
  validateOtp,
  validateReset,
  validateSignup,
  verifyOtpBody,
} from '../src';

describe('login rules (spec 5)', () => {
  it('needs e-mail and password', () => {
    expect(validateLogin({ email: '', password: 'x' })).toBe(MSG.loginRequired);
    expect(validateLogin({ email: 'a@b.co', password: '' })).toBe(MSG.loginRequired);
    expect(validateLogin({ email: '   ', password: 'secret' })).toBe(MSG.loginRequired);
    expect(validateLogin({ email: 'a@b.co', password: 'x' })).toBeNull();
  });
  it('the server schema answers the same message', () => {
    expect(loginBody.safeParse({}).error?.issues[0]?.message).toBe(MSG.loginRequired);
    expect(loginBody.safeParse({ email: 'a@b.co', password: '' }).error?.issues[0]?.message).toBe(
      MSG.loginRequired,
    );
  });
});

describe('signup rules (spec 5)', () => {
  const ok = { fullName: 'Ana Lopez', email: 'ana@uni.edu', password: 'secret' };
  it('needs name, e-mail and password', () => {
    expect(validateSignup({ ...ok, fullName: ' ' })).toBe(MSG.signupRequired);
    expect(validateSignup({ ...ok, email: '' })).toBe(MSG.signupRequired);
    expect(validateSignup({ ...ok, password: '' })).toBe(MSG.signupRequired);
  });
  it('needs a valid e-mail', () => {
    for (const email of ['ana', 'ana@', 'ana@uni', 'a na@uni.edu', '@uni.edu']) {
      expect(validateSignup({ ...ok, email })).toBe(MSG.invalidEmail);
    }
  });
  it('needs a password of at least 6 characters', () => {
    expect(validateSignup({ ...ok, password: '12345' })).toBe(MSG.passwordTooShort);
    expect(validateSignup({ ...ok, password: '123456' })).toBeNull();
  });
  it('the server schema answers the same messages', () => {
    const body = {
      firstName: 'Ana',
      lastName: 'Lopez',
      email: 'ana@uni.edu',
      password: 'secret',
      phoneNumber: '',
    };
    expect(signupBody.safeParse({ ...body, firstName: '' }).error?.issues[0]?.message).toBe(
      MSG.signupRequired,
    );
    expect(signupBody.safeParse({ ...body, email: 'nope' }).error?.issues[0]?.message).toBe(MSG.invalidEmail);
    expect(signupBody.safeParse({ ...body, password: '12345' }).error?.issues[0]?.message).toBe(
      MSG.passwordTooShort,
    );
    expect(signupBody.parse({ ...body, email: ' Ana@Uni.EDU ' }).email).toBe('ana@uni.edu');
  });
  it('accepts exactly 6 digits as a code', () => {
    expect(validateOtp('123456')).toBeNull();
    for (const code of ['12345', '1234567', '12a456', '', '12 456'])
      expect(validateOtp(code)).toBe(MSG.invalidOtp);
    expect(verifyOtpBody.safeParse({ email: 'a@b.co', otpCode: '12345' }).error?.issues[0]?.message).toBe(
      MSG.invalidOtp,
    );
  });
});

describe('the name split', () => {
  it('splits at the first space', () => {
    expect(splitName('Ana Maria Lopez')).toEqual({ firstName: 'Ana', lastName: 'Maria Lopez' });
    expect(splitName('  Ana   Lopez ')).toEqual({ firstName: 'Ana', lastName: 'Lopez' });
    expect(splitName('Prince')).toEqual({ firstName: 'Prince', lastName: '' });
  });
});

describe('forgot and reset rules (spec 5)', () => {
  const ok = { email: 'ana@uni.edu', otpCode: '123456', newPassword: 'secret', confirmPassword: 'secret' };
  it('needs a valid e-mail to request a code', () => {
    expect(validateForgotRequest('ana@')).toBe(MSG.invalidEmail);
    expect(validateForgotRequest('ana@uni.edu')).toBeNull();
  });
  it('needs a 6-digit code, a 6-character password and a matching confirmation', () => {
    expect(validateReset(ok)).toBeNull();
    expect(validateReset({ ...ok, otpCode: '12' })).toBe(MSG.invalidOtp);
    expect(validateReset({ ...ok, newPassword: 'abc', confirmPassword: 'abc' })).toBe(
      MSG.newPasswordTooShort,
    );
    expect(validateReset({ ...ok, confirmPassword: 'secreT' })).toBe(MSG.newPasswordsMismatch);
    expect(
      resetPasswordBody.safeParse({ email: 'ana@uni.edu', otpCode: '123456', newPassword: 'abc' }).error
        ?.issues[0]?.message,
    ).toBe(MSG.newPasswordTooShort);
  });
});
