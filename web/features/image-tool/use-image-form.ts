import { useState } from 'react';
import { planImageSize, type ImageSizePlan } from 'src/contracts/images';
import { imageUrlSchema } from 'src/contracts/images.schema';
import { DEFAULT_CHOICES, requestOf, resultFormatOf, widthProblem, type ImageChoices } from 'web/lib/image-tool';
import type { Chosen, Source } from 'web/features/image-tool/image-tool-common';

/** What a submission sends: the source and the request the choices make. */
export type Submission = ({ source: 'upload'; file: File } | { source: 'url'; url: string }) & { request: ReturnType<typeof requestOf> };

/**
 * The form's state: the source (a chosen file or a URL), the conversion and its options, and what
 * they will give (the size plan, from the one size rule the server uses). `check()` says what
 * blocks a submission and shows it, or gives the submission.
 */
export function useImageForm() {
  const [source, setSource] = useState<Source>('upload');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [url, setUrl] = useState('');
  const [urlInvalid, setUrlInvalid] = useState(false);
  const [missing, setMissing] = useState(false);
  const [choices, setChoices] = useState<ImageChoices>(DEFAULT_CHOICES);
  // The exact width's problem shows once the field is left or the form sent, not on each keystroke.
  const [widthTouched, setWidthTouched] = useState(false);

  const request = requestOf(choices);
  const file = source === 'upload' ? chosen : null;
  const size = file?.width && file.height ? { width: file.width, height: file.height } : null;
  const plan: ImageSizePlan | null = size && !widthProblem(choices.size) ? planImageSize(size.width, size.height, request.conversion, request.options) : null;
  const fileType = file?.file.type || undefined;
  const widthError = widthTouched ? widthProblem(choices.size) : null;

  const check = (): Submission | null => {
    if (widthProblem(choices.size)) {
      setWidthTouched(true);
      return null;
    }
    if (source === 'upload') {
      if (!chosen) {
        setMissing(true);
        return null;
      }
      return chosen.problem ? null : { source: 'upload', file: chosen.file, request };
    }
    const parsed = imageUrlSchema.safeParse(url);
    if (!parsed.success) {
      setUrlInvalid(true);
      return null;
    }
    return { source: 'url', url: parsed.data, request };
  };

  return {
    source,
    setSource,
    chosen,
    choose: (next: Chosen | null) => {
      setChosen(next);
      setMissing(false);
    },
    url,
    urlInvalid,
    setUrl: (value: string, invalid: boolean) => {
      setUrl(value);
      setUrlInvalid(invalid);
    },
    missing,
    choices,
    setChoices,
    widthError,
    touchWidth: () => setWidthTouched(true),
    request,
    size,
    plan,
    fileType,
    resultFormat: resultFormatOf(choices.format, fileType),
    check,
  };
}
