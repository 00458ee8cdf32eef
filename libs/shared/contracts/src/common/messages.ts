/**
 * The product's own texts and error messages, verbatim from docs/product.md (docs/product.md#screens, docs/product.md#validation, docs/product.md#errors). Every screen and
 * every API error uses these constants, so a message is written exactly once.
 */
export const MESSAGES = {
  // docs/product.md#validation add-member form (current version)
  invalidName: 'Not a valid name',
  invalidEmail: 'Not a valid email address',
  invalidAmount: 'Not a valid amount',
  invalidDiscount: 'Not a valid discount price',
  invalidPhone: 'Not a valid phone number',
  invalidUrl: 'Not a valid URL',
  // docs/product.md#validation-signup signup form
  fillAllFields: 'Please fill in all required fields',
  signupInvalidName: 'Invalid Name',
  signupInvalidEmail: 'Invalid Email',
  signupInvalidPhone: 'Invalid Phone Number',
  signupInvalidUrl: 'Invalid URL',
  // docs/product.md#validation, docs/product.md#errors login
  loginEmpty: 'Please add to email and password fields',
  loginFailed: 'Password or username does not match any user',
  // docs/product.md#errors prefixes for database write errors
  addMemberFailedPrefix: 'Error adding member to database: ',
  addBranchFailedPrefix: 'Error adding branch to member: ',
  // docs/product.md#screens screens
  branchesIntro: 'View and manage your trees and their branches.',
  branchesEmpty: 'Add your first tree and start growing your business!',
  noBranchesYet: 'No branches yet',
  managedByMindbody: 'Managed by Mindbody',
  // Grove, issue 32: a member billed on the business's Stripe is managed as a Mindbody one is
  managedByStripe: 'Managed by Stripe',
  notFound: 'OOPS.. PAGE NOT FOUND!',
  noProspects: 'You have no more prospective members to review. Please come back later.',
  noReferralLink: 'Referral link does not exist for this member',
  // docs/product.md#referral-join referral join page / docs/product.md#errors
  referralSuccess: 'Successfully registered!',
  referralFailed:
    'Something went wrong! Please try again. If this continues to occur, the link may be expired.',
  routerError: 'Unexpected Application Error!',
  // docs/product.md#screens, docs/product.md#errors contact page
  contactSuccess: "Thank you for your message! We'll be in touch soon.",
  contactFailed: 'Error: Please ensure you have completed the reCAPTCHA correctly.',
  // docs/product.md#screens, docs/product.md#errors issue form
  supportSuccess: 'Successfully submitted request!',
  supportFailed: 'Failed to send! Please try again.',
  // docs/product.md#states, docs/product.md#errors Mindbody setup
  mindbodyInvalidCredentials: 'Invalid credentials provided',
  // issue 22: site activation (Mindbody's 'Getting started': the owner activates Grove's access)
  mindbodyInvalidSiteId: 'Enter your Mindbody site number, e.g. -99 for the sandbox',
  mindbodyUnknownSite: 'Mindbody has no site with this number',
  // issue 31: a site belongs to one business
  mindbodySiteClaimed:
    'This Mindbody site is connected to another Grove account. Its owner must remove the Mindbody integration there before it can be connected here.',
  mindbodySiteNotActivated:
    'This Mindbody site has not given Grove access yet: open the activation link as the site owner, then try again',
  mindbodyActivationHelp:
    'Open this link while signed in to Mindbody as the site owner, then come back',
  mindbodySomethingWentWrong: 'Something went wrong',
  mindbodyInvalidDiscounts: 'Please provide valid values.',
  mindbodyStillWorking: 'Still working on it, thanks for your patience',
  mindbodyFailedAt: 'Failed at:',
  // issue 25: a sync writes autopays only after the owner confirmed its preview
  mindbodySyncConfirmRequired: 'Review the bills this sync will change, then confirm it',
  mindbodySyncPreviewStale:
    'The bills to change are no longer those you reviewed: review them again before syncing',
  // issue 33 item 4: 'Add to Mindbody' at an approval (Grove's own texts, not in SPEC)
  mindbodyAddNotConnected: 'Connect Mindbody and import its members before adding a friend to it',
  mindbodyAddRefused: 'Mindbody did not add the client:',
  mindbodyAddMissingFields: 'Mindbody needs what Grove does not have for a new client:',
  mindbodyAddInMindbody: 'Add them in Mindbody; the next sync links them by email.',
  mindbodyAddUnreachable: 'Mindbody could not be reached: try again in a minute',
  mindbodyAddNotFailed: 'This member is not waiting to be added to Mindbody',
  mindbodyAddAsBoolean: 'addToMindbody must be true or false',
  mindbodyReferralTypeUnknown: 'Pick one of the referral types of your Mindbody site',
  mindbodyAddOption: 'Add to Mindbody',
  mindbodyAddPending: 'Adding to Mindbody…',
  mindbodyAddFailed: 'Not added to Mindbody.',
  // issue 32: a gym's Stripe account as its member billing (Grove's own texts, not in SPEC)
  stripeInvalidKey:
    'Enter a restricted key from your Stripe Dashboard: it starts with rk_live_ or rk_test_',
  stripeKeyRefused: 'Stripe did not accept this key: check that it is copied whole and not revoked',
  stripeKeyMissingPermissions:
    'This key lacks a permission Grove needs: Customers Read, Subscriptions Write, Coupons Write and Invoices Read',
  stripeAccountClaimed:
    'This Stripe account is connected to another Grove account. Its owner must remove the Stripe integration there before it can be connected here.',
  stripeNotConnected: 'Connect your Stripe account first',
  stripeDiscountsFirst: 'Save the referral discounts first',
  stripeUnavailable: 'Stripe could not be reached: try again in a minute',
  stripeNoSubscription: 'This member has no running Stripe subscription',
  stripeInvalidWebhookSecret:
    "Enter the endpoint's signing secret from your Stripe Dashboard: it starts with whsec_",
  // Grove's own (not in SPEC): rules SPEC leaves open
  passwordTooShort: 'Password must be at least 12 characters',
  passwordTooLong: 'Password can be at most 128 characters',
  passwordTooCommon: 'This password is too common. Please choose one that is harder to guess.',
  passwordChangeRequired:
    'Your password no longer meets our rules (at least 12 characters, not a common password). Please choose a new one.',
  businessNameRequired: 'Please enter your business name',
  duplicateMember: 'A member with this email already exists',
  managedMemberLocked: 'This member is managed by Mindbody and cannot be changed here',
  stripeMemberLocked: 'This member is managed by Stripe and cannot be changed here',
  memberNotFound: 'Member not found',
  updateMemberFailedPrefix: 'Error updating member: ',
  notABranch: 'That member is not a branch of this tree',
  emailTaken: 'An account with this email already exists',
  selfBranch: 'A member cannot be their own branch',
  prospectNotFound: 'Prospective member not found',
  joinFlagNotFound: 'Flagged join not found',
  messageRequired: 'Please enter a message',
  messageTooLong: 'Your message can be at most 500 characters',
  captchaRequired: 'Please complete the captcha',
  captchaUnavailable: 'The captcha could not load. Please reload the page and try again.',
  issueTitleRequired: 'Please enter an issue title',
  issueDescriptionRequired: 'Please describe the issue',
  currentPasswordWrong: 'Your current password is not correct',
  currentPasswordRequired: 'Please enter your current password',
  passwordsDoNotMatch: 'The new passwords do not match',
  accountSaved: 'Your details have been saved.',
  prospectManaged:
    'This prospective member is managed by Mindbody and cannot be approved or removed here',
  leadSuccess: "Thanks! We'll be in touch soon.",
  companyRequired: 'Please enter your company name',
  companyTooLong: 'Your company name can be at most 200 characters',
  issueTitleTooLong: 'The issue title can be at most 200 characters',
  issueDescriptionTooLong: 'The issue description can be at most 5000 characters',
  passwordChanged: 'Your password has been changed',
  // Grove's own: 'Set a password' of an account that joined with a passkey (issue 34)
  passwordSet: 'Your password has been set',
  passwordAlreadySet: 'Your account already has a password. Use Change password instead.',
  // Grove's own: the business's country (docs/product.md#country, issue 25)
  countryInvalid: 'Please choose your country',
  // Grove's own: the business's time zone (issue 25, docs/decisions/business-locale.md)
  timeZoneInvalid: 'Please choose your time zone',
  // Grove's own: forgot password (docs/product.md#forgot-password, issue 25)
  forgotPassword: 'Forgot password?',
  passwordResetSent:
    'If an account uses this email, a link to choose a new password is on its way. Check your inbox.',
  passwordResetLinkInvalid: 'This link has expired or has already been used. Ask for a new one.',
  // Grove's own: control characters (plain-text.ts) and paging (rules.ts PAGE_MAX, PAGE_SIZE_MAX)
  messageInvalidCharacters: 'Your message contains characters that cannot be sent',
  issueTitleInvalidCharacters: 'The issue title contains characters that cannot be sent',
  issueDescriptionInvalidCharacters:
    'The issue description contains characters that cannot be sent',
  companyInvalidCharacters: 'Your company name contains characters that cannot be saved',
  searchInvalid: 'Search can contain only text',
  /** 400 for a members list filter that is not one of its values (Grove). */
  memberFilterInvalid: 'Please choose a filter from the list.',
  pageInvalid: 'Page must be a whole number from 1 to 1000000',
  pageSizeInvalid: 'Page size must be a whole number from 1 to 100',
  // Grove's own: Grove's bill (issue 30, docs/product.md#billing)
  billingPaused:
    'Grove is paused until your subscription is paid: approvals, imports and bill changes wait, and nothing is lost. Open Account Settings → Billing to pay.',
  billingAlreadyActive: 'Your Grove subscription is already active',
  billingNoCustomer: 'Add a card first: there is no billing account to manage yet',
  billingUnavailable: 'Billing is not available right now. Please try again in a few minutes.',
} as const;

export type MessageKey = keyof typeof MESSAGES;
