// Artwork upload of the design step (§5): drag-and-drop or browse, accepted by name (JPG, JPEG, PNG,
// PDF, SVG, .ai, .eps), the spec's rejection text, "max 10MB each" (stated; the server enforces it),
// Clear All and per-file removal.
import { FileUp, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { Alert, Button, cn } from '@shop/ui';
import { messages } from '../messages.js';
import { formatMegabytes } from '@shop/contracts';
import { isAcceptedUpload, uploadAcceptAttribute } from './model.js';

export interface UploadAreaProps {
  files: File[];
  onChange: (files: File[]) => void;
}

export function UploadArea({ files, onChange }: UploadAreaProps) {
  const [rejected, setRejected] = useState(false);
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    // Judged by the name, not the browser's MIME guess: .ai and .eps often arrive without a type.
    validator: (file) =>
      isAcceptedUpload(file.name) ? null : { code: 'file-invalid-type', message: messages.uploadRejected },
    noClick: true,
    onDrop: (accepted: File[], rejections: FileRejection[]) => {
      setRejected(rejections.length > 0);
      if (accepted.length) onChange([...files, ...accepted]);
    },
  });

  return (
    <div className="flex flex-col gap-3">
      <div
        {...getRootProps({
          className: cn(
            'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors',
            isDragActive ? 'border-brass-400 bg-brass-400/10' : 'border-olive-500 bg-ink-900',
          ),
        })}
      >
        <input
          {...getInputProps()}
          accept={uploadAcceptAttribute}
          aria-label="Upload design files"
          data-testid="upload-input"
        />
        <FileUp aria-hidden="true" className="size-10 text-brass-400" />
        <p className="font-semibold text-khaki-50">
          {isDragActive ? 'Drop your files here' : 'Drag and drop your artwork here'}
        </p>
        <p className="text-sm text-khaki-300">JPG, PNG, PDF, AI, EPS or SVG, max 10MB each</p>
        <Button variant="secondary" onClick={open}>
          Browse Files
        </Button>
      </div>
      {rejected ? <Alert tone="error">{messages.uploadRejected}</Alert> : null}
      {files.length ? (
        <div className="flex flex-col gap-2">
          <div className="flex items-center justify-between">
            <p className="text-sm font-semibold text-khaki-100">
              {files.length} {files.length === 1 ? 'file' : 'files'} selected
            </p>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                onChange([]);
                setRejected(false);
              }}
            >
              <Trash2 aria-hidden="true" className="size-4" /> Clear All
            </Button>
          </div>
          <ul className="flex flex-col gap-2" aria-label="Selected files">
            {files.map((file, i) => (
              <li
                key={`${file.name}-${i}`}
                className="flex items-center gap-3 rounded-md border border-olive-600 bg-olive-800 px-3 py-2"
              >
                <span className="min-w-0 flex-1 truncate text-sm text-khaki-50">{file.name}</span>
                <span className="shrink-0 text-xs text-khaki-300">{formatMegabytes(file.size)}</span>
                <button
                  type="button"
                  onClick={() => onChange(files.filter((_, j) => j !== i))}
                  aria-label={`Remove ${file.name}`}
                  className="rounded p-1 text-khaki-300 hover:bg-olive-700 hover:text-khaki-50 focus-visible:outline-2 focus-visible:outline-brass-300"
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
