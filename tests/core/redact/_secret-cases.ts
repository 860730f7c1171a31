/**
 * Secrets of the kinds issue 16 added (and the URL passwords it found leaking), as
 * [kind, input, expected output]: shared by the redactor's tables and the export tests of
 * every format. Made up; none is real.
 */
export const NEW_KINDS: [string, string, string][] = [
  ["url-password", "https://bob:p@ss/w0rd@git.example.com/x.git", "https://bob:…[redacted url password]@git.example.com/x.git"],
  ["url-password", "redis://:s3cr3t@localhost:6379/0", "redis://:…[redacted url password]@localhost:6379/0"],
  ["url-password", "https://u:pw9@host.example/a?email=a@b.com", "https://u:…[redacted url password]@host.example/a?email=a@b.com"],
  ["stripe-key", "stripe sk_live_51HabcDEF1234567890ghijKLmn", "stripe sk_live_…[redacted stripe key]"],
  ["stripe-key", "(rk_live_51HabcDEF1234567890ghijKLmn)", "(rk_live_…[redacted stripe key])"],
  ["npm-token", "//registry.npmjs.org/:_authToken=npm_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78", "//registry.npmjs.org/:_authToken=npm_…[redacted npm token]"],
  ["huggingface-token", "login hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh now", "login hf_…[redacted hugging face token] now"],
  ["gitlab-token", "PRIVATE-TOKEN: glpat-xY3z_AbCdEf12345678901", "PRIVATE-TOKEN: glpat-…[redacted gitlab token]"],
  ["sendgrid-key", "key 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.", "key SG.…[redacted sendgrid key]."],
  ["slack-webhook", "curl https://hooks.slack.com/services/T01234567/B01234567/AbCdEfGhIjKlMnOpQrStUvWx -d x", "curl https://hooks.slack.com/services/…[redacted slack webhook] -d x"],
  ["json-secret", '{"user": "bob", "password": "hunter2!x"}', '{"user": "bob", "password": "…[redacted json secret]"}'],
  ["json-secret", '{"Client_Secret":"abc123def"}', '{"Client_Secret":"…[redacted json secret]"}'],
  ["env-secret", 'api_key = "abcdef123456"', 'api_key = "…[redacted secret value]"'],
  ["env-secret", "curl -d token=ab12cd34ef56", "curl -d token=…[redacted secret value]"],
  ["aws-access-key-id", "s3://bucket/AKIAIOSFODNN7EXAMPLE/x", "s3://bucket/AKIA…[redacted aws access key id]/x"],
];

