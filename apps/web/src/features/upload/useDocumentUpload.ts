import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { UPLOAD, UPLOAD_MSG, documentProblems, type OcrResult } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { readSession } from '../../lib/session-storage';
import { usePlatform } from '../../platform';
import { useSession, useSignedInUser } from '../session/session-context';
import type { ImageDecoder } from './compress';
import { isPdf, prepareFile } from './prepare-file';
import {
  UploadStepError,
  absoluteUploadUrl,
  putSignedFile,
  recognizeDocument,
  signUpload,
  submitDocument,
} from './upload-api';

/** What the page knows of the chosen document and of the upload. */
export interface UploadState {
  file: File | null;
  /** An object URL of the chosen picture (null for a PDF). */
  preview: string | null;
  /** Compressing the picture and reading its text. */
  checking: boolean;
  recognized: OcrResult | null;
  /** Section 5's problems with the last reading; empty when it passed. */
  problems: string[];
  /** After 1 recognition failure or 3 failed validations, or for a PDF: an admin reviews it by hand. */
  manual: boolean;
  error: string | null;
  /** 0..1 while the file is being sent; null otherwise. */
  progress: number | null;
  submitting: boolean;
  done: boolean;
}

const INITIAL: UploadState = {
  file: null,
  preview: null,
  checking: false,
  recognized: null,
  problems: [],
  manual: false,
  error: null,
  progress: null,
  submitting: false,
  done: false,
};

function message(error: unknown, fallback: string): string {
  return error instanceof UploadStepError ? error.message : fallback;
}

/**
 * The upload page's flow: choose (browse, drop or camera) → check (type, compression, size, text
 * recognition and section 5's validation) → submit (sign → PUT with progress → submit), then Talk after 2 s.
 */
export function useDocumentUpload(decode: ImageDecoder) {
  const api = useApi();
  const platform = usePlatform();
  const user = useSignedInUser();
  const { updateUser } = useSession();
  const navigate = useNavigate();
  const [state, setState] = useState<UploadState>(INITIAL);
  const failures = useRef({ recognition: 0, validation: 0 });
  /** Manual mode earned by failures; it lasts for the rest of the visit. */
  const manualMode = useRef(false);
  /** Each choice of a file; a slower reading of an earlier file is then ignored. */
  const choice = useRef(0);
  const patch = (next: Partial<UploadState>) => setState((current) => ({ ...current, ...next }));
  /** The preview's object URL, released when another file replaces it and when the page closes. */
  const previewUrl = useRef<string | null>(null);
  const showPreview = useCallback((file: File | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = file && !isPdf(file) ? URL.createObjectURL(file) : null;
    return previewUrl.current;
  }, []);
  useEffect(() => () => void showPreview(null), [showPreview]);

  useEffect(() => {
    if (!state.done) return;
    const timer = setTimeout(() => void navigate('/talk'), UPLOAD.redirectMs);
    return () => clearTimeout(timer);
  }, [state.done, navigate]);

  const choose = useCallback(
    async (picked: File) => {
      const id = ++choice.current;
      showPreview(null);
      setState({ ...INITIAL, manual: manualMode.current, checking: true });
      const prepared = await prepareFile(picked, decode);
      if (id !== choice.current) return;
      if (!prepared.ok) {
        patch({ checking: false, error: prepared.error });
        return;
      }
      const file = prepared.file;
      // Text recognition reads pictures only: a PDF is always reviewed by an admin (this file only: a
      // picture chosen instead is read again). Once manual mode is earned, nothing is read any more.
      const pdf = isPdf(file);
      const read = !pdf && !manualMode.current;
      patch({ file, preview: showPreview(file), checking: read, manual: pdf || manualMode.current });
      if (!read) return;
      try {
        const recognized = await recognizeDocument(api, file);
        if (id !== choice.current) return;
        const problems = documentProblems(recognized, user.firstName, file.size);
        if (problems.length > 0) failures.current.validation += 1;
        manualMode.current ||= failures.current.validation >= UPLOAD.manualAfterValidationFailures;
        patch({ checking: false, recognized, problems, manual: manualMode.current });
      } catch (error) {
        if (id !== choice.current) return;
        failures.current.recognition += 1;
        manualMode.current ||= failures.current.recognition >= UPLOAD.manualAfterRecognitionFailures;
        const text = message(error, UPLOAD_MSG.ocrFailedPrefix);
        patch({ checking: false, manual: manualMode.current, error: text });
      }
    },
    [api, decode, showPreview, user.firstName],
  );

  const remove = useCallback(() => {
    choice.current += 1;
    showPreview(null);
    setState({ ...INITIAL, manual: manualMode.current });
  }, [showPreview]);

  const submit = useCallback(async () => {
    const { file, manual, problems, recognized, checking, submitting } = state;
    if (checking || submitting) return;
    if (!file) {
      patch({ error: UPLOAD_MSG.noFile });
      return;
    }
    if (!manual && (problems.length > 0 || !recognized)) {
      patch({ error: UPLOAD_MSG.fixErrors });
      return;
    }
    if (!readSession()?.token) {
      patch({ error: UPLOAD_MSG.tokenMissing });
      return;
    }
    patch({ error: null, submitting: true, progress: 0 });
    try {
      const signed = await signUpload(api, file);
      const url = absoluteUploadUrl(signed.url, platform.serverUrl);
      await putSignedFile(url, file, file.type, (progress) => patch({ progress }));
      const saved = await submitDocument(api, {
        bucket: signed.bucket,
        key: signed.key,
        manual,
        recognized,
      });
      // The server's me_updated follows; the page and the badges change at once meanwhile.
      updateUser({
        ...user,
        documentStatus: saved.documentStatus ?? 'pending_verification',
        rejectionReason: null,
      });
      patch({ submitting: false, done: true });
    } catch (error) {
      patch({ submitting: false, progress: null, error: message(error, UPLOAD_MSG.saveFailed) });
    }
  }, [api, platform.serverUrl, state, updateUser, user]);

  return { state, choose, remove, submit };
}
