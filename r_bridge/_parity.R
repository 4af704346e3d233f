## R side of r_bridge.parity: sdcMicro's mvTopCoding, shuffle and the other methods of issue 29.
## Loaded into the bridge's helper environment on first use. Written for this project.

mv_top_coding_df <- function(df, alpha, seed, center, cov) capture({
  x <- df
  if (is.null(center)) {
    # mvTopCoding's own MCD; the same covMcd call under the same seed gives its center and cov
    set.seed(seed)
    cv <- robustbase::covMcd(x = data.table::as.data.table(x))
    center <- cv$center
    cov <- cv$cov
    set.seed(seed)
    y <- sdcMicro::mvTopCoding(x, alpha = alpha)
  } else {
    cov <- matrix(cov, nrow = length(center))
    maha <- stats::mahalanobis(x, center = center, cov = cov)
    y <- sdcMicro::mvTopCoding(x, maha = maha, center = center, alpha = alpha)
  }
  maha <- stats::mahalanobis(x, center = center, cov = cov)
  list(y = lapply(as.data.frame(y), as.numeric), center = as.numeric(center), cov = as.numeric(cov),
       flagged = as.integer(!is.na(maha) & maha > stats::qchisq(1 - alpha, df = ncol(x))))
})

shuffle_df <- function(df, responses, predictors, method, covmethod, seed, regmethod = "lm", gadp = FALSE) capture({
  form <- stats::as.formula(paste(paste(responses, collapse = " + "), "~", paste(predictors, collapse = " + ")))
  set.seed(seed)
  res <- sdcMicro::shuffle(df, form = form, method = method, covmethod = covmethod, regmethod = regmethod,
                           gadp = gadp)
  e <- NULL
  cr <- NULL
  best <- NULL
  M <- as.matrix(df[c(responses, predictors)])
  if (method == "ds" && !anyNA(M)) {
    # replay shuffle's one draw: with no missing value it is the first after the seed (after
    # covMcd's own draws for covmethod mcd)
    q <- length(responses)
    set.seed(seed)
    if (covmethod == "mcd") {
      fit <- robustbase::covMcd(M, cor = TRUE)
      cr <- fit$cor
      best <- sort(fit$best)
    } else {
      cr <- stats::cor(M, method = covmethod)
    }
    pmc <- 2 * sin(pi * cr / 6)
    s <- pmc[1:q, 1:q, drop = FALSE] - pmc[1:q, -(1:q), drop = FALSE] %*%
      solve(pmc[-(1:q), -(1:q), drop = FALSE]) %*% pmc[-(1:q), 1:q, drop = FALSE]
    e <- as.numeric(MASS::mvrnorm(nrow(M), mu = rep(0, q), Sigma = s))
    cr <- as.numeric(cr)
  }
  list(shuffled = as.numeric(res$shuffled), perturbed = as.numeric(res$perturbed), e = e, cor = cr,
       best = best, egadp = if (is.null(res$egapd)) NULL else as.numeric(res$egapd))
})

lm_fitted_df <- function(df, responses, predictors) capture({
  M <- as.matrix(df)
  fit <- stats::lm(M[, responses, drop = FALSE] ~ M[, predictors, drop = FALSE])
  as.numeric(stats::fitted(fit))
})

## addNoise's ROMM and outdect, and their draws replayed: ROMM's N x N normal matrix is the first
## draw after the seed; outdect's covMcd comes first, then one rnorm per outlier for each
## variable in turn (all but the first K * k of z unused).
add_noise_draws <- function(df, variables, noise, method, p, seed) capture({
  set.seed(seed)
  r <- sdcMicro::addNoise(df, variables = variables, noise = noise, method = method, p = p)
  x <- as.matrix(df[variables])
  out <- list(xm = as.numeric(as.matrix(r$xm)))
  set.seed(seed)
  if (method == "ROMM") {
    out$z <- stats::rnorm(nrow(x) * nrow(x))
  } else {
    cv <- robustbase::covMcd(stats::na.omit(x), alpha = 1 / 2)
    out$center <- as.numeric(cv$center)
    out$cov <- as.numeric(cv$cov)
    out$z <- stats::rnorm(nrow(x) * ncol(x))
  }
  out
})

## createSdcObj with one ghost-variable link, then localSuppression(k) or localSupp(threshold):
## the key's and the ghost variables' missing cells afterwards.
ghost_vars_obj <- function(df, keys, key_var, ghosts, k, threshold, via_add) capture({
  for (v in keys) df[[v]] <- factor(df[[v]])
  if (via_add) {
    sdc <- sdcMicro::createSdcObj(df, keyVars = keys)
    sdc <- sdcMicro::addGhostVars(sdc, keyVar = key_var, ghostVars = ghosts)
  } else {
    sdc <- sdcMicro::createSdcObj(df, keyVars = keys, ghostVars = list(list(key_var, ghosts)))
  }
  sdc <- if (is.null(threshold)) sdcMicro::localSuppression(sdc, k = k) else
    sdcMicro::localSupp(sdc, threshold = threshold, keyVar = key_var)
  mk <- sdcMicro::get.sdcMicroObj(sdc, type = "manipKeyVars")
  mg <- sdcMicro::get.sdcMicroObj(sdc, type = "manipGhostVars")
  list(key_na = as.integer(is.na(mk[[key_var]])), ghost_na = lapply(ghosts, function(g) as.integer(is.na(mg[[g]]))))
})

microaggregation_measure_df <- function(df, variables, aggr, method, measure, trim, varsort, strata) capture({
  args <- list(obj = df, variables = variables, aggr = aggr, method = method, measure = measure, trim = trim,
               varsort = varsort)
  if (!is.null(strata)) args$strata_variables <- strata
  r <- do.call(sdcMicro::microaggregation, args)
  as.numeric(as.matrix(r$mx[, variables, drop = FALSE]))
})

microaggregation_clust_df <- function(df, variables, aggr, method, nc, clustermethod, transf, varsort) capture({
  r <- sdcMicro::microaggregation(obj = df, variables = variables, aggr = aggr, method = method, nc = nc,
                                  clustermethod = clustermethod, transf = transf, varsort = varsort)
  as.numeric(as.matrix(r$mx[, variables, drop = FALSE]))
})

cluster_partition_df <- function(df, nc, clustermethod) capture({
  a <- if (clustermethod == "pam") cluster::pam(df, nc) else cluster::clara(df, nc)
  list(clustering = as.integer(a$clustering), medoids = as.integer(if (clustermethod == "pam") a$id.med else a$i.med))
})

mafast_df <- function(df, variables, by, aggr) capture({
  r <- sdcMicro::mafast(df, variables = variables, by = by, aggr = aggr)
  as.numeric(as.matrix(r[, variables, drop = FALSE]))
})
