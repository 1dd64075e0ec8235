/*
 * The reference page's start script (served at /api/docs/reference-page.js). It is a file rather than inline code so
 * that the page's Content-Security-Policy admits scripts from the service only. The page's element #swagger-ui
 * carries the settings the service filled in: where the document is, the API root, the authorization and token
 * endpoints of the realm the page is set to, and the page the sign-in popup returns to (oauth2-redirect.html).
 */
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  var settings = root.dataset;

  var absolute = function (url) { return new URL(url, window.location.href).href; };

  /*
   * The document names one realm's endpoints; the sign-in (authorization code with PKCE, or the password grant) must
   * use the chosen realm's, and the API root the service actually serves under.
   */
  function adapted(doc) {
    var schemes = (doc.components && doc.components.securitySchemes) || {};
    var code = schemes.browserLogin && schemes.browserLogin.flows && schemes.browserLogin.flows.authorizationCode;
    if (code) {
      code.authorizationUrl = absolute(settings.authorizationUrl);
      code.tokenUrl = absolute(settings.tokenUrl);
    }
    var password = schemes.passwordLogin && schemes.passwordLogin.flows && schemes.passwordLogin.flows.password;
    if (password) password.tokenUrl = absolute(settings.tokenUrl);
    doc.servers = [{ url: settings.apiUrl }];
    return doc;
  }

  function start(doc) {
    window.ui = window.SwaggerUIBundle({
      spec: adapted(doc),
      dom_id: '#swagger-ui',
      layout: 'BaseLayout',
      presets: [window.SwaggerUIBundle.presets.apis],
      // No badge image from validator.swagger.io: nothing leaves the service.
      validatorUrl: null,
      deepLinking: true,
      displayOperationId: true,
      filter: true,
      queryConfigEnabled: false,
      // The popup of the authorization code flow comes back here, on this page's origin, and hands the code over
      // through window.opener (a redirect URI of self-service, matched exactly by the issuer).
      oauth2RedirectUrl: absolute(settings.redirectUrl),
    });
    window.ui.initOAuth({ clientId: settings.clientId, usePkceWithAuthorizationCodeGrant: true, scopes: 'openid' });
  }

  function fail(error) {
    var message = document.createElement('p');
    message.className = 'reference-page-error';
    message.textContent = 'The OpenAPI document could not be loaded: ' + error.message;
    root.appendChild(message);
  }

  fetch(settings.openapiUrl, { headers: { Accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error('GET ' + settings.openapiUrl + ' answered ' + res.status);
      return res.json();
    })
    .then(start, fail);
})();
